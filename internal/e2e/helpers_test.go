package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// The client the tests connect as, and the commit identity it gets.
const (
	clientName    = "test-client"
	clientVersion = "1.2"
	wantAuthor    = "test-client <test-client@mcp.wikid>"
	wantClient    = "test-client/1.2"
)

// fixtureRepo returns a checkout holding a copy of fixtures/basic in one
// commit.
func fixtureRepo(tb testing.TB) string {
	tb.Helper()
	return gittest.CopyRepo(tb, filepath.Join("..", "..", "fixtures", "basic"))
}

// openWiki opens a wiki over dir, configured as wikid serve would from the
// fixture's .wikid.yaml (daily notes in journal/), with its index caught up.
func openWiki(tb testing.TB, dir string, edit func(*wiki.Options)) *wiki.Wiki {
	tb.Helper()
	return openWikiEmbedding(tb, dir, edit, nil)
}

// openWikiEmbedding is openWiki with semantic search embedding with emb;
// without, for a nil emb.
func openWikiEmbedding(tb testing.TB, dir string, edit func(*wiki.Options), emb semantic.Embedder) *wiki.Wiki {
	tb.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	opts := wiki.Options{
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Daily:     wiki.DailyOptions{Folder: "journal", Template: "templates/daily"},
		Logger:    logger,
	}
	if edit != nil {
		edit(&opts)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		tb.Fatal(err)
	}
	deps := wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}
	if emb != nil {
		sem, err := semantic.Open(ctx, filepath.Join(store.Dir(), "semantic"), emb, semantic.Options{Logger: logger})
		if err != nil {
			tb.Fatal(err)
		}
		deps.Semantic = sem
	}
	w, err := wiki.Open(ctx, deps, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	if err := w.Reindex(ctx, false, nil); err != nil {
		tb.Fatal(err)
	}
	return w
}

// serveHTTP serves w over HTTP on a test server and returns the endpoint.
func serveHTTP(tb testing.TB, w *wiki.Wiki, opts mcpserver.Options, hopts mcpserver.HTTPOptions) string {
	tb.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Profiles == nil {
		opts.Profiles = table.Profiles()
	}
	h := mcpserver.New(w, opts).HTTPHandler(hopts)
	ts := httptest.NewServer(h)
	tb.Cleanup(func() {
		h.Close(context.Background())
		ts.Close()
	})
	return ts.URL + mcpserver.HTTPPath
}

// handshakeProtocol asks a client for the initialize handshake of protocol
// versions up to 2025-11-25, which most MCP clients still use, instead of
// the stateless protocol mcp-go's client prefers.
const handshakeProtocol = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// connectHTTP returns a client initialized against an HTTP endpoint, with
// the given protocol version ("" for the client's preferred one).
func connectHTTP(tb testing.TB, url string, headers map[string]string, protocol string) *client.Client {
	tb.Helper()
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		tb.Fatal(err)
	}
	initializeStarted(tb, ctx, c, protocol)
	return c
}

// initializeStarted initializes a started client as test-client/1.2.
func initializeStarted(tb testing.TB, ctx context.Context, c *client.Client, protocol string) {
	tb.Helper()
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: clientVersion}
	if _, err := c.Initialize(ctx, req); err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	tb.Cleanup(func() { c.Close() })
}

// session is a connected client with the output schemas of its tools, so
// that every result is checked against the schema its tool declares.
type session struct {
	tb      testing.TB
	c       *client.Client
	tools   map[string]mcp.Tool
	outputs map[string]*jsonschema.Schema
	// published are the output schemas as listed, which a failed call's
	// {"error": ...} must match, as clients validate those too.
	published map[string]*jsonschema.Schema
}

func newSession(tb testing.TB, c *client.Client) *session {
	tb.Helper()
	s := &session{tb: tb, c: c, tools: map[string]mcp.Tool{}, outputs: map[string]*jsonschema.Schema{},
		published: map[string]*jsonschema.Schema{}}
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range res.Tools {
		s.tools[t.Name] = t
		if t.OutputSchema.Type == "" && len(t.RawOutputSchema) == 0 {
			continue // a tool that answers in content only
		}
		// The published output schemas admit unknown keys, for clients of
		// later versions; the tests hold results to every key being declared.
		var out map[string]any
		b, _ := json.Marshal(t.OutputSchema)
		json.Unmarshal(b, &out)
		s.published[t.Name] = compileSchema(tb, t.Name+".published", out)
		json.Unmarshal(b, &out)
		s.outputs[t.Name] = compileSchema(tb, t.Name+".output", closeObjects(out))
	}
	return s
}

// closeObjects sets additionalProperties false on every object schema that
// lists properties, at any depth.
func closeObjects(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok && len(props) > 0 {
			v["additionalProperties"] = false
		}
		for _, e := range v {
			closeObjects(e)
		}
	case []any:
		for _, e := range v {
			closeObjects(e)
		}
	}
	return v
}

// compileSchema compiles a JSON Schema given as any JSON-marshalable value.
func compileSchema(tb testing.TB, name string, v any) *jsonschema.Schema {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name+".json", doc); err != nil {
		tb.Fatal(err)
	}
	sch, err := c.Compile(name + ".json")
	if err != nil {
		tb.Fatalf("schema %s does not compile: %v\n%s", name, err, b)
	}
	return sch
}

// call calls a tool and checks the result's shape: one text content, and
// structured content that satisfies the tool's output schema.
func (s *session) call(name string, args map[string]any) *mcp.CallToolResult {
	s.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		s.tb.Fatalf("%s %v: %v", name, args, err)
	}
	if text(res) == "" {
		s.tb.Errorf("%s: empty text", name)
	}
	if _, ok := s.outputs[name]; !ok && !res.IsError {
		// A tool that answers in content only: text, then images.
		if len(res.RawStructuredContent) > 0 || res.StructuredContent != nil {
			s.tb.Errorf("%s: structured content from a tool without an output schema", name)
		}
		return res
	}
	if len(res.Content) != 1 {
		s.tb.Fatalf("%s: %d contents, want one text", name, len(res.Content))
	}
	raw := structuredJSON(s.tb, res)
	outputs := s.outputs
	if res.IsError {
		outputs = s.published
	}
	if sch, ok := outputs[name]; ok {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			s.tb.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			s.tb.Errorf("%s: structured content does not match the output schema: %#v\n%s", name, err, raw)
		}
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured content
// into a T.
func ok[T any](s *session, name string, args map[string]any) (T, string) {
	s.tb.Helper()
	res := s.call(name, args)
	var out T
	if res.IsError {
		s.tb.Fatalf("%s %v failed: %s", name, args, text(res))
	}
	if err := tool.DecodeWire(structuredJSON(s.tb, res), &out); err != nil {
		s.tb.Fatalf("%s: %v", name, err)
	}
	if txt := text(res); strings.ContainsAny(txt, "\x02\x03\x04\x05") {
		s.tb.Errorf("%s: its text holds unsaid references:\n%q", name, txt)
	}
	return out, text(res)
}

// fail calls a tool that must fail with code, checks the error's text and
// structured forms and returns the structured error.
func (s *session) fail(name string, args map[string]any, code string) map[string]any {
	s.tb.Helper()
	res := s.call(name, args)
	if !res.IsError {
		s.tb.Errorf("%s %v succeeded, want %s: %s", name, args, code, text(res))
		return nil
	}
	var shape struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal(structuredJSON(s.tb, res), &shape); err != nil || shape.Error == nil {
		s.tb.Fatalf("%s: structured error %s: %v", name, structuredJSON(s.tb, res), err)
	}
	e := shape.Error
	if e["code"] != code {
		s.tb.Errorf("%s %v: code %v, want %s (%s)", name, args, e["code"], code, text(res))
	}
	msg, _ := e["message"].(string)
	hint, _ := e["hint"].(string)
	if !strings.HasPrefix(text(res), code+": ") || msg == "" || !strings.Contains(text(res), msg) {
		s.tb.Errorf("%s: text %q does not render %s: %s", name, text(res), code, msg)
	}
	if hint != "" && !strings.Contains(text(res), " Hint: ") {
		s.tb.Errorf("%s: text %q lacks the hint %q", name, text(res), hint)
	}
	return e
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if t, ok := res.Content[0].(mcp.TextContent); ok {
		return t.Text
	}
	return ""
}

func structuredJSON(tb testing.TB, res *mcp.CallToolResult) []byte {
	tb.Helper()
	if len(res.RawStructuredContent) > 0 {
		return res.RawStructuredContent
	}
	if res.StructuredContent == nil {
		tb.Fatalf("no structured content: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// git runs git in dir and returns its output without surrounding space.
func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return strings.TrimSpace(gittest.Git(tb, dir, args...))
}

// commitInfo is the last commit as the git CLI reports it.
type commitInfo struct {
	sha, author, subject, body string
	trailers                   map[string]string
}

func lastCommit(tb testing.TB, dir string) commitInfo {
	tb.Helper()
	out := gittest.Git(tb, dir, "log", "-1", "--format=%H%x00%an <%ae>%x00%s%x00%b")
	parts := strings.SplitN(out, "\x00", 4)
	c := commitInfo{sha: parts[0], author: parts[1], subject: parts[2], body: parts[3], trailers: map[string]string{}}
	for _, line := range strings.Split(git(tb, dir, "log", "-1", "--format=%(trailers:only,unfold)"), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			c.trailers[k] = v
		}
	}
	return c
}

// checkCommit checks that exactly one commit was added since before, by the
// test client through tool, and that the repository is clean and sound.
func checkCommit(tb testing.TB, dir, before, tool, commit string) commitInfo {
	tb.Helper()
	if n := git(tb, dir, "rev-list", "--count", before+"..HEAD"); n != "1" {
		tb.Errorf("%s made %s commits, want 1", tool, n)
	}
	c := lastCommit(tb, dir)
	if c.sha != commit {
		tb.Errorf("%s reported commit %s, HEAD is %s", tool, commit, c.sha)
	}
	if c.author != wantAuthor {
		tb.Errorf("%s: author %q, want %q", tool, c.author, wantAuthor)
	}
	if c.trailers["Wiki-Tool"] != tool || c.trailers["Wiki-Client"] != wantClient || c.trailers["Wiki-Base"] != before {
		tb.Errorf("%s: trailers %v", tool, c.trailers)
	}
	if st := gittest.Status(tb, dir); st != "" {
		tb.Errorf("%s: git status not clean:\n%s", tool, st)
	}
	gittest.Fsck(tb, dir)
	return c
}
