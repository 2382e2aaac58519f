// Package profiletest serves a profile to a real MCP client, for the
// profiles' tests: a wiki over a real git repository in a temporary
// directory, the server mcpserver builds for the profile, served over
// HTTP on a test server, and mcp-go's client connected to it, so that a
// test calls the profile's tools as its seed's clients do. The wiki, the
// server and the client are toolstest's; this kit adds what the profiles'
// tests check with them.
package profiletest

import (
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// Client is a client connected to a profile's server, with the repository
// and wiki behind it.
type Client struct {
	tb testing.TB
	c  *client.Client
	// Dir is the repository's checkout.
	Dir string
	// Wiki is the wiki the server serves.
	Wiki *wiki.Wiki
	// Tools are the tools the server lists, by name.
	Tools map[string]mcp.Tool
}

// Serve commits files (path → content) to a new repository, opens a wiki
// over it with its index caught up, serves it with profile and returns a
// client connected to it. Everything is closed when the test ends.
func Serve(tb testing.TB, profile tool.Profile, files map[string]string) *Client {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "seed", files)
	w := Open(tb, dir)
	opts := mcpserver.Options{Profiles: mcpserver.Profiles{"test": profile}, Profile: "test"}
	if err := opts.Validate(); err != nil {
		tb.Fatal(err)
	}
	c := toolstest.ConnectHTTP(tb, toolstest.ServeHTTP(tb, w, opts, mcpserver.HTTPOptions{}), nil, toolstest.HandshakeProtocol)
	list, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	tools := map[string]mcp.Tool{}
	for _, t := range list.Tools {
		tools[t.Name] = t
	}
	return &Client{tb: tb, c: c, Dir: dir, Wiki: w, Tools: tools}
}

// Open opens a wiki over the checkout dir, as wikid serve would with its
// defaults (daily notes in daily/), and catches its index up.
func Open(tb testing.TB, dir string) *wiki.Wiki {
	tb.Helper()
	return toolstest.OpenWiki(tb, dir, func(o *wiki.Options) { o.Daily = wiki.DailyOptions{Folder: "daily"} })
}

// Call calls a tool and returns its result, failed or not.
func (c *Client) Call(name string, args map[string]any) *mcp.CallToolResult {
	c.tb.Helper()
	return toolstest.CallTool(c.tb, c.c, name, args)
}

// OK calls a tool that must succeed and returns its text.
func (c *Client) OK(name string, args map[string]any) string {
	c.tb.Helper()
	res := c.Call(name, args)
	if res.IsError {
		c.tb.Fatalf("%s %v failed: %s", name, args, Text(res))
	}
	return Text(res)
}

// JSON calls a tool that must succeed and decodes its text, which is
// JSON, into out.
func (c *Client) JSON(name string, args map[string]any, out any) {
	c.tb.Helper()
	text := c.OK(name, args)
	if err := json.Unmarshal([]byte(text), out); err != nil {
		c.tb.Fatalf("%s %v: %v\n%s", name, args, err, text)
	}
}

// Fail calls a tool that must fail, checks that the call changed
// nothing in the repository and returns the error's text.
func (c *Client) Fail(name string, args map[string]any) string {
	c.tb.Helper()
	head, status := c.Head(), gittest.Status(c.tb, c.Dir)
	res := c.Call(name, args)
	if !res.IsError {
		c.tb.Errorf("%s %v succeeded, want an error: %s", name, args, Text(res))
	}
	if c.Head() != head || gittest.Status(c.tb, c.Dir) != status {
		c.tb.Errorf("%s %v failed, yet changed the repository", name, args)
	}
	return Text(res)
}

// Head returns the commit HEAD names, as the git CLI reports it.
func (c *Client) Head() string {
	c.tb.Helper()
	return strings.TrimSpace(gittest.Git(c.tb, c.Dir, "rev-parse", "HEAD"))
}

// Text returns the first text content of a result.
func Text(res *mcp.CallToolResult) string {
	for _, ct := range res.Content {
		if t, ok := ct.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// Names returns the names a client of the profile can act on: its
// tools, the properties of their input schemas at any depth, and the
// values their enums allow.
func (c *Client) Names() map[string]bool {
	c.tb.Helper()
	names := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for k := range props {
					names[k] = true
				}
			}
			if enum, ok := v["enum"].([]any); ok {
				for _, e := range enum {
					if s, ok := e.(string); ok {
						names[s] = true
					}
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for name, t := range c.Tools {
		names[name] = true
		raw := []byte(t.RawInputSchema)
		if len(raw) == 0 {
			var err error
			if raw, err = json.Marshal(t.InputSchema); err != nil {
				c.tb.Fatal(err)
			}
		}
		var schema any
		if err := json.Unmarshal(raw, &schema); err != nil {
			c.tb.Fatalf("%s: input schema: %v", name, err)
		}
		walk(schema)
	}
	return names
}

// identifier is what names an argument, a field or a tool in a message
// or hint: a snake_case name (expected_matches, next_cursor, wiki_status)
// or an indexed one (edits[0]). Plain words are left alone: "find" or
// "section" may be an argument or English; so are error codes
// (INVALID_PARAMS), in upper case.
var identifier = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z][A-Za-z0-9_]*\[[0-9]*\]`)

// quoted is a quoted value in a message: a path or text the caller gave.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// Foreign returns the identifiers in an error's text that are not among
// names (see Names): arguments, fields or tools the profile lacks. An
// error given as JSON, {"error": {"code", "message"}}, is read by its
// message; quoted values are left out.
func Foreign(text string, names map[string]bool) []string {
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	if json.Unmarshal([]byte(text), &e) == nil && e.Error.Message != "" {
		text = e.Error.Message
	}
	text = quoted.ReplaceAllString(text, `""`)
	var out []string
	for _, id := range identifier.FindAllString(text, -1) {
		name, _, _ := strings.Cut(id, "[")
		if name == strings.ToUpper(name) {
			continue // an error code
		}
		if !names[name] && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Failure is a call that failed, and the text of its error.
type Failure struct {
	Tool string
	Args map[string]any
	Text string
}

// badValues are what Walk gives an argument of a JSON type.
var badValues = map[string][]any{
	"string":  {"", "../escape", "no/such/note", "no/such/note.md", "(", "\x00"},
	"integer": {-1, 1e9},
	"number":  {-1, 1e9},
	"boolean": {"yes"},
	"array":   {[]any{}, []any{5}, []any{"../escape"}},
	"object":  {map[string]any{"no_such_key": 1}},
}

// Walk calls every tool with its required arguments from valid, each
// missing in turn, then with each argument broken in the ways its type
// allows, and returns the calls that failed. Mutating tools may commit
// whatever a broken argument lets through.
func (c *Client) Walk(valid map[string]any) []Failure {
	c.tb.Helper()
	var failed []Failure
	call := func(name string, args map[string]any) {
		if res := c.Call(name, args); res.IsError {
			failed = append(failed, Failure{Tool: name, Args: args, Text: Text(res)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		var schema struct {
			Required   []string                  `json:"required"`
			Properties map[string]map[string]any `json:"properties"`
		}
		raw := []byte(c.Tools[name].RawInputSchema)
		if len(raw) == 0 {
			raw, _ = json.Marshal(c.Tools[name].InputSchema)
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			c.tb.Fatalf("%s: input schema: %v", name, err)
		}
		base := map[string]any{}
		for _, r := range schema.Required {
			v, ok := valid[r]
			if !ok {
				c.tb.Fatalf("%s: no valid value for the required argument %s", name, r)
			}
			base[r] = v
		}
		for _, r := range schema.Required {
			call(name, with(base, r, nil, true))
		}
		for _, p := range slices.Sorted(maps.Keys(schema.Properties)) {
			typ, _ := schema.Properties[p]["type"].(string)
			wrong := any(map[string]any{})
			if typ == "object" {
				wrong = "text"
			}
			for _, v := range append([]any{wrong}, badValues[typ]...) {
				call(name, with(base, p, v, false))
			}
		}
	}
	return failed
}

// with returns a copy of args with k set to v, or without k.
func with(args map[string]any, k string, v any, drop bool) map[string]any {
	c := make(map[string]any, len(args)+1)
	for key, val := range args {
		c[key] = val
	}
	if drop {
		delete(c, k)
	} else {
		c[k] = v
	}
	return c
}

// Call is a tool and its arguments.
type Call struct {
	Tool string
	Args map[string]any
}

// FailAll makes calls that must each fail, and returns their failures.
func (c *Client) FailAll(calls []Call) []Failure {
	c.tb.Helper()
	failed := make([]Failure, 0, len(calls))
	for _, call := range calls {
		failed = append(failed, Failure{Tool: call.Tool, Args: call.Args, Text: c.Fail(call.Tool, call.Args)})
	}
	return failed
}

// CheckNames fails the test for each failure whose error names an
// argument, field or tool the profile lacks (see Foreign).
func (c *Client) CheckNames(failed []Failure) {
	c.tb.Helper()
	names := c.Names()
	for _, f := range failed {
		if foreign := Foreign(f.Text, names); len(foreign) > 0 {
			args, _ := json.Marshal(f.Args)
			c.tb.Errorf("%s %s: the error names %v, which the profile lacks:\n%s", f.Tool, args, foreign, f.Text)
		}
	}
}
