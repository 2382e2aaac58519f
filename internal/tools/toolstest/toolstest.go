// Package toolstest is the kit the tools' behaviour tests and the
// end-to-end suites share: a wiki over a copy of the fixture repository,
// served in the test's process over HTTP with the program's table of
// profiles, and mcp-go's client connected to it, whose every result is
// checked against the output schema its tool declares; with checks of
// the commits made, by the git CLI.
package toolstest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
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
	ClientName    = "test-client"
	ClientVersion = "1.2"
	WantAuthor    = "test-client <test-client@mcp.wikid>"
	WantClient    = "test-client/1.2"
)

// FixtureRepo returns a checkout holding a copy of fixtures/basic in one
// commit.
func FixtureRepo(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
	return gittest.CopyRepo(tb, filepath.Join(dir, "fixtures", "basic"))
}

// OpenWiki opens a wiki over dir, configured as wikid serve would from the
// fixture's .wikid.yaml (daily notes in journal/), with its index caught up.
func OpenWiki(tb testing.TB, dir string, edit func(*wiki.Options)) *wiki.Wiki {
	tb.Helper()
	return OpenWikiEmbedding(tb, dir, edit, nil)
}

// OpenWikiEmbedding is OpenWiki with semantic search embedding with emb;
// without, for a nil emb.
func OpenWikiEmbedding(tb testing.TB, dir string, edit func(*wiki.Options), emb semantic.Embedder) *wiki.Wiki {
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

// ServeHTTP serves w over HTTP on a test server and returns the endpoint.
func ServeHTTP(tb testing.TB, w *wiki.Wiki, opts mcpserver.Options, hopts mcpserver.HTTPOptions) string {
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

// HandshakeProtocol asks a client for the initialize handshake of protocol
// versions up to 2025-11-25, which most MCP clients still use, instead of
// the stateless protocol mcp-go's client prefers.
const HandshakeProtocol = mcp.LATEST_LEGACY_PROTOCOL_VERSION

// ConnectHTTP returns a client initialized against an HTTP endpoint, with
// the given protocol version ("" for the client's preferred one).
func ConnectHTTP(tb testing.TB, url string, headers map[string]string, protocol string) *client.Client {
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
	InitializeStarted(tb, ctx, c, protocol)
	return c
}

// InitializeStarted initializes a started client as test-client/1.2.
func InitializeStarted(tb testing.TB, ctx context.Context, c *client.Client, protocol string) {
	tb.Helper()
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = protocol
	req.Params.ClientInfo = mcp.Implementation{Name: ClientName, Version: ClientVersion}
	if _, err := c.Initialize(ctx, req); err != nil {
		tb.Fatalf("initialize: %v", err)
	}
	tb.Cleanup(func() { c.Close() })
}

// Session is a connected client with the output schemas of its tools, so
// that every result is checked against the schema its tool declares.
type Session struct {
	TB testing.TB
	// C is the client.
	C *client.Client
	// Tools are the tools the server lists, by name.
	Tools map[string]mcp.Tool
	// Outputs are their output schemas, closed: every key of a result
	// must be declared.
	Outputs map[string]*jsonschema.Schema
	// Published are the output schemas as listed, which a failed call's
	// {"error": ...} must match, as clients validate those too.
	Published map[string]*jsonschema.Schema
}

// NewSession lists the tools of the server c is connected to, and
// compiles their output schemas.
func NewSession(tb testing.TB, c *client.Client) *Session {
	tb.Helper()
	s := &Session{TB: tb, C: c, Tools: map[string]mcp.Tool{}, Outputs: map[string]*jsonschema.Schema{},
		Published: map[string]*jsonschema.Schema{}}
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, t := range res.Tools {
		s.Tools[t.Name] = t
		if t.OutputSchema.Type == "" && len(t.RawOutputSchema) == 0 {
			continue // a tool that answers in content only
		}
		// The published output schemas admit unknown keys, for clients of
		// later versions; the tests hold results to every key being declared.
		var out map[string]any
		b, _ := json.Marshal(t.OutputSchema)
		json.Unmarshal(b, &out)
		s.Published[t.Name] = CompileSchema(tb, t.Name+".published", out)
		json.Unmarshal(b, &out)
		s.Outputs[t.Name] = CompileSchema(tb, t.Name+".output", CloseObjects(out))
	}
	return s
}

// CloseObjects sets additionalProperties false on every object schema that
// lists properties, at any depth.
func CloseObjects(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok && len(props) > 0 {
			v["additionalProperties"] = false
		}
		for _, e := range v {
			CloseObjects(e)
		}
	case []any:
		for _, e := range v {
			CloseObjects(e)
		}
	}
	return v
}

// CompileSchema compiles a JSON Schema given as any JSON-marshalable value.
func CompileSchema(tb testing.TB, name string, v any) *jsonschema.Schema {
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

// CallTool calls a tool through c, within a minute, and returns its
// result, failed or not; a call that gets no result fails the test.
func CallTool(tb testing.TB, c *client.Client, name string, args map[string]any) *mcp.CallToolResult {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// Call calls a tool and checks the result's shape: one text content, and
// structured content that satisfies the tool's output schema.
func (s *Session) Call(name string, args map[string]any) *mcp.CallToolResult {
	s.TB.Helper()
	res := CallTool(s.TB, s.C, name, args)
	if Text(res) == "" {
		s.TB.Errorf("%s: empty text", name)
	}
	if _, ok := s.Outputs[name]; !ok && !res.IsError {
		// A tool that answers in content only: text, then images.
		if len(res.RawStructuredContent) > 0 || res.StructuredContent != nil {
			s.TB.Errorf("%s: structured content from a tool without an output schema", name)
		}
		return res
	}
	if len(res.Content) != 1 {
		s.TB.Fatalf("%s: %d contents, want one text", name, len(res.Content))
	}
	raw := StructuredJSON(s.TB, res)
	outputs := s.Outputs
	if res.IsError {
		outputs = s.Published
	}
	if sch, ok := outputs[name]; ok {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			s.TB.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			s.TB.Errorf("%s: structured content does not match the output schema: %#v\n%s", name, err, raw)
		}
	}
	return res
}

// OK calls a tool that must succeed and decodes its structured content
// into a T.
func OK[T any](s *Session, name string, args map[string]any) (T, string) {
	s.TB.Helper()
	res := s.Call(name, args)
	var out T
	if res.IsError {
		s.TB.Fatalf("%s %v failed: %s", name, args, Text(res))
	}
	if err := tool.DecodeWire(StructuredJSON(s.TB, res), &out); err != nil {
		s.TB.Fatalf("%s: %v", name, err)
	}
	if txt := Text(res); strings.ContainsAny(txt, "\x02\x03\x04\x05") {
		s.TB.Errorf("%s: its text holds unsaid references:\n%q", name, txt)
	}
	return out, Text(res)
}

// Fail calls a tool that must fail with code, checks the error's text and
// structured forms and returns the structured error.
func (s *Session) Fail(name string, args map[string]any, code string) map[string]any {
	s.TB.Helper()
	res := s.Call(name, args)
	if !res.IsError {
		s.TB.Errorf("%s %v succeeded, want %s: %s", name, args, code, Text(res))
		return nil
	}
	var shape struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal(StructuredJSON(s.TB, res), &shape); err != nil || shape.Error == nil {
		s.TB.Fatalf("%s: structured error %s: %v", name, StructuredJSON(s.TB, res), err)
	}
	e := shape.Error
	if e["code"] != code {
		s.TB.Errorf("%s %v: code %v, want %s (%s)", name, args, e["code"], code, Text(res))
	}
	msg, _ := e["message"].(string)
	hint, _ := e["hint"].(string)
	if !strings.HasPrefix(Text(res), code+": ") || msg == "" || !strings.Contains(Text(res), msg) {
		s.TB.Errorf("%s: text %q does not render %s: %s", name, Text(res), code, msg)
	}
	if hint != "" && !strings.Contains(Text(res), " Hint: ") {
		s.TB.Errorf("%s: text %q lacks the hint %q", name, Text(res), hint)
	}
	return e
}

// Text returns the text content of a result, "" when it has none.
func Text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if t, ok := res.Content[0].(mcp.TextContent); ok {
		return t.Text
	}
	return ""
}

// StructuredJSON returns the structured content of a result as JSON.
func StructuredJSON(tb testing.TB, res *mcp.CallToolResult) []byte {
	tb.Helper()
	if len(res.RawStructuredContent) > 0 {
		return res.RawStructuredContent
	}
	if res.StructuredContent == nil {
		tb.Fatalf("no structured content: %s", Text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// Git runs git in dir and returns its output without surrounding space.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return strings.TrimSpace(gittest.Git(tb, dir, args...))
}

// Commit is the last commit as the git CLI reports it.
type Commit struct {
	SHA, Author, Subject, Body string
	Trailers                   map[string]string
}

// LastCommit returns the last commit of dir, by the git CLI.
func LastCommit(tb testing.TB, dir string) Commit {
	tb.Helper()
	out := gittest.Git(tb, dir, "log", "-1", "--format=%H%x00%an <%ae>%x00%s%x00%b")
	parts := strings.SplitN(out, "\x00", 4)
	c := Commit{SHA: parts[0], Author: parts[1], Subject: parts[2], Body: parts[3], Trailers: map[string]string{}}
	for _, line := range strings.Split(Git(tb, dir, "log", "-1", "--format=%(trailers:only,unfold)"), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			c.Trailers[k] = v
		}
	}
	return c
}

// CheckCommit checks that exactly one commit was added since before, by the
// test client through tool, and that the repository is clean and sound.
func CheckCommit(tb testing.TB, dir, before, tool, commit string) Commit {
	tb.Helper()
	if n := Git(tb, dir, "rev-list", "--count", before+"..HEAD"); n != "1" {
		tb.Errorf("%s made %s commits, want 1", tool, n)
	}
	c := LastCommit(tb, dir)
	if c.SHA != commit {
		tb.Errorf("%s reported commit %s, HEAD is %s", tool, commit, c.SHA)
	}
	if c.Author != WantAuthor {
		tb.Errorf("%s: author %q, want %q", tool, c.Author, WantAuthor)
	}
	if c.Trailers["Wiki-Tool"] != tool || c.Trailers["Wiki-Client"] != WantClient || c.Trailers["Wiki-Base"] != before {
		tb.Errorf("%s: trailers %v", tool, c.Trailers)
	}
	if st := gittest.Status(tb, dir); st != "" {
		tb.Errorf("%s: git status not clean:\n%s", tool, st)
	}
	gittest.Fsck(tb, dir)
	return c
}

// MutationOut is the structured result of a tool that changes a note.
type MutationOut struct {
	wiki.Result
	Path    string `json:"path"`
	Version string `json:"version"`
}

// With returns a copy of args with k set to v.
func With(args map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(args)+1)
	for key, val := range args {
		c[key] = val
	}
	c[k] = v
	return c
}

// Without returns a copy of args without k.
func Without(args map[string]any, k string) map[string]any {
	c := With(args, k, nil)
	delete(c, k)
	return c
}

// WaitIndexed waits, through wiki_status, until the search index has
// caught up.
func WaitIndexed(t testing.TB, s *Session) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, _ := OK[wiki.Status](s, "wiki_status", nil)
		if st.Index.CaughtUp && !st.Index.Building {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the index did not catch up: %+v", st.Index)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// JSONOf returns v as JSON.
func JSONOf(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// CheckClean checks that the checkout at dir is clean and its repository
// sound, by the git CLI.
func CheckClean(t testing.TB, dir string) {
	t.Helper()
	if st := Git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status:\n%s", st)
	}
	Git(t, dir, "fsck", "--strict", "--no-progress")
}

// NoteFileOf returns the file of the note at notePath at HEAD, by the git
// CLI.
func NoteFileOf(t testing.TB, dir, notePath string) string {
	t.Helper()
	for _, ext := range []string{".md", ".markdown", ".mdx"} {
		if _, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:"+notePath+ext); err == nil {
			return notePath + ext
		}
	}
	t.Fatalf("no file for %s", notePath)
	return ""
}

// BenchSession serves a generated wiki of 10,000 notes and 2,000 commits
// (the performance budget's size) over HTTP with a token, and returns a
// session and the path of a note in its middle.
func BenchSession(b *testing.B) (*Session, string) {
	b.Helper()
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 2000)
	files := strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
	url := ServeHTTP(b, OpenWiki(b, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{Token: "bench"})
	s := NewSession(b, ConnectHTTP(b, url, map[string]string{"Authorization": "Bearer bench"}, ""))
	return s, strings.TrimSuffix(files[len(files)/2], ".md")
}

// LastChange returns the id and committer time of the newest commit of
// `git log --follow -- file`, and the committer time of its oldest.
func LastChange(tb testing.TB, dir, file string) (string, time.Time, time.Time) {
	tb.Helper()
	lines := strings.Split(Git(tb, dir, "log", "--follow", "--format=%H %cI", "--", file), "\n")
	parse := func(line string) (string, time.Time) {
		id, when, _ := strings.Cut(line, " ")
		t, err := time.Parse(time.RFC3339, when)
		if err != nil {
			tb.Fatal(err)
		}
		return id, t
	}
	id, modified := parse(lines[0])
	_, created := parse(lines[len(lines)-1])
	return id, created, modified
}

// DatedFixture is the fixture wiki with one more commit, made with git, that
// changes people/bob.md only: the other notes' only commit is the root.
func DatedFixture(tb testing.TB) string {
	tb.Helper()
	dir := FixtureRepo(tb)
	b, err := os.ReadFile(filepath.Join(dir, "people", "bob.md"))
	if err != nil {
		tb.Fatal(err)
	}
	gittest.Commit(tb, dir, "edit bob", map[string]string{"people/bob.md": string(b) + "\nMore about Bob.\n"})
	return dir
}

// SameTime says whether got is set and is the instant want.
func SameTime(got *time.Time, want time.Time) bool { return got != nil && got.Equal(want) }
