package e2e_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/wikid/wikid/internal/tool"
)

// The end-to-end tests drive the built wikid binary with the official MCP
// TypeScript SDK client (@modelcontextprotocol/sdk), as MCP clients in the
// wild do. Node runs e2e/client.mjs, a small program that answers JSON
// requests on its standard input with the SDK's results; the Go side makes
// the calls, checks the results and checks the repository with the git CLI.

// e2eDir holds the Node package of the end-to-end tests.
const e2eDir = "client"

// nodeDir is a Node package of the end-to-end tests, installed once.
type nodeDir struct {
	dir  string
	once sync.Once
	err  error // why the Node side cannot run; errNoNode to skip
}

var (
	// nodeV1 is client, the TypeScript SDK 1.x.
	nodeV1 = &nodeDir{dir: e2eDir}
	// nodeV2 is client2, the TypeScript SDK 2.x.
	nodeV2 = &nodeDir{dir: e2eDirV2}
)

// errNoNode says that npm or node is missing on a machine that is not CI.
var errNoNode = errors.New("node and npm are needed for the end-to-end tests with the MCP TypeScript SDK")

// requireNode makes sure node can run e2e/client.mjs: node and npm are on
// PATH and the locked dependencies are installed (npm ci, unless
// node_modules already holds every locked version). Without npm or node
// the test is skipped, except under CI, where it fails.
func requireNode(tb testing.TB) { nodeV1.require(tb) }

// require makes sure node can run the scripts of n, as requireNode does
// for client.
func (n *nodeDir) require(tb testing.TB) {
	tb.Helper()
	n.once.Do(func() { n.err = installNodeDeps(n.dir) })
	switch {
	case n.err == nil:
	case errors.Is(n.err, errNoNode) && os.Getenv("CI") == "":
		tb.Skipf("%v; install Node.js 20 or later (CI fails instead of skipping)", n.err)
	default:
		tb.Fatal(n.err)
	}
}

// installNodeDeps runs npm ci in dir, unless its node_modules holds every
// locked version already.
func installNodeDeps(dir string) error {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%w: %s is not on PATH", errNoNode, tool)
		}
	}
	if nodeDepsInstalled(dir) {
		return nil
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return nil
}

// nodeDepsInstalled reports whether dir's node_modules holds every
// package of its package-lock.json at its locked version.
func nodeDepsInstalled(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if json.Unmarshal(b, &lock) != nil || len(lock.Packages) < 2 {
		return false
	}
	for pkg, p := range lock.Packages {
		if pkg == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(pkg), "package.json"))
		var installed struct {
			Version string `json:"version"`
		}
		if err != nil || json.Unmarshal(b, &installed) != nil || installed.Version != p.Version {
			return false
		}
	}
	return true
}

// tsBridge is a running e2e/client.mjs: it holds MCP clients made with the
// TypeScript SDK and runs their calls, several at once.
type tsBridge struct {
	tb     testing.TB
	stdin  io.WriteCloser
	stderr *lockedBuffer
	exited chan struct{}

	mu      sync.Mutex
	next    int
	pending map[int]chan bridgeAnswer
	broken  error // set when the bridge's output ended
}

type bridgeAnswer struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// startBridge starts node on e2e/client.mjs; the test's cleanup ends it
// and, if the test failed, logs what it and the servers it started wrote
// to standard error.
func startBridge(tb testing.TB) *tsBridge {
	tb.Helper()
	requireNode(tb)
	cmd := exec.Command("node", filepath.Join(e2eDir, "client.mjs"))
	cmd.Env = serveEnv()
	b := &tsBridge{tb: tb, stderr: &lockedBuffer{}, exited: make(chan struct{}), pending: map[int]chan bridgeAnswer{}}
	cmd.Stderr = b.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if b.stdin, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go b.read(stdout)
	go func() {
		cmd.Wait()
		close(b.exited)
	}()
	tb.Cleanup(func() {
		b.stdin.Close() // the bridge closes its clients and exits
		select {
		case <-b.exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-b.exited
			tb.Errorf("node did not exit after its input ended")
		}
		if tb.Failed() {
			tb.Logf("node standard error:\n%s", b.stderr)
		}
	})
	return b
}

// read hands each answer to the request waiting for it.
func (b *tsBridge) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	for sc.Scan() {
		var a bridgeAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			b.fail(fmt.Errorf("node wrote %q: %v", sc.Bytes(), err))
			return
		}
		b.mu.Lock()
		ch := b.pending[a.ID]
		delete(b.pending, a.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- a
		}
	}
	b.fail(fmt.Errorf("node's output ended: %v", sc.Err()))
}

// fail answers every waiting request with err, and every later one.
func (b *tsBridge) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.broken == nil {
		b.broken = err
	}
	for id, ch := range b.pending {
		ch <- bridgeAnswer{ID: id}
		delete(b.pending, id)
	}
}

// do sends one request and waits for its answer; an error answer is an
// error. It is safe for concurrent use.
func (b *tsBridge) do(req map[string]any) (json.RawMessage, error) {
	ch := make(chan bridgeAnswer, 1)
	b.mu.Lock()
	if b.broken != nil {
		b.mu.Unlock()
		return nil, b.broken
	}
	b.next++
	id := b.next
	b.pending[id] = ch
	req["id"] = id
	line, err := json.Marshal(req)
	if err == nil {
		_, err = b.stdin.Write(append(line, '\n'))
	}
	b.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("send %s to node: %w", req["op"], err)
	}
	a := <-ch
	switch {
	case a.Error != nil:
		return nil, fmt.Errorf("%s (code %v)", a.Error.Message, a.Error.Code)
	case a.Result == nil:
		b.mu.Lock()
		defer b.mu.Unlock()
		return nil, b.broken
	}
	return a.Result, nil
}

// doInto is do that decodes the result into out, failing the test on any
// error.
func (b *tsBridge) doInto(tb testing.TB, req map[string]any, out any) {
	tb.Helper()
	op := req["op"]
	raw, err := b.do(req)
	if err != nil {
		tb.Fatalf("%v %v: %v", op, req["name"], err)
	}
	if out != nil {
		if err := tool.DecodeWire(raw, out); err != nil {
			tb.Fatalf("%v: decode %s: %v", op, raw, err)
		}
	}
}

// tsClient is one MCP client of the TypeScript SDK, connected to wikid.
type tsClient struct {
	b  *tsBridge
	id int
	// tools and outputs are set by listTools: the tools as listed, and
	// their output schemas with every object closed, so that a result
	// holding an undeclared key fails the test.
	tools   map[string]tsTool
	outputs map[string]*jsonschema.Schema
	// plain is set for a client of a profile that answers in text only:
	// its results must have no structured content. seed is set for a
	// profile whose tools have their seed's output schemas: its errors
	// are text only.
	plain, seed bool
}

// tsTool is a tool as tools/list describes it.
type tsTool struct {
	Name         string         `json:"name"`
	Title        string         `json:"title"`
	Description  string         `json:"description"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema"`
	Annotations  struct {
		Title           string `json:"title"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
		DestructiveHint *bool  `json:"destructiveHint"`
		IdempotentHint  *bool  `json:"idempotentHint"`
		OpenWorldHint   *bool  `json:"openWorldHint"`
	} `json:"annotations"`
}

// tsResult is a tools/call result as the SDK returns it.
type tsResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Data     string `json:"data"`
		MimeType string `json:"mimeType"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

// text is the result's one text content.
func (r *tsResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// errorCode is the code of an error result, "" for a success.
func (r *tsResult) errorCode() string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(r.StructuredContent, &e)
	return e.Error.Code
}

// connectTS connects a new client of b: over stdio, spawning the built
// wikid with `serve args...`, or over HTTP to url with the headers.
func connectTS(tb testing.TB, b *tsBridge, req map[string]any) *tsClient {
	tb.Helper()
	req["op"] = "connect"
	if _, ok := req["client"]; !ok {
		req["client"] = map[string]string{"name": clientName, "version": clientVersion}
	}
	var out struct {
		Client     int `json:"client"`
		ServerInfo struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	b.doInto(tb, req, &out)
	if out.ServerInfo.Name != "wikid" {
		tb.Errorf("server name %q", out.ServerInfo.Name)
	}
	return &tsClient{b: b, id: out.Client}
}

// stdioRequest is the connect request that spawns bin with `serve args...`.
func stdioRequest(bin string, args ...string) map[string]any {
	env := map[string]string{}
	for _, kv := range serveEnv() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return map[string]any{"transport": "stdio", "command": bin, "args": append([]string{"serve"}, args...), "env": env}
}

// httpRequest is the connect request for an HTTP endpoint with a token.
func httpRequest(url, token string) map[string]any {
	return map[string]any{"transport": "http", "url": url, "headers": map[string]string{"Authorization": "Bearer " + token}}
}

// listTools lists the tools and keeps them, with their output schemas.
func (c *tsClient) listTools(tb testing.TB) []tsTool {
	tb.Helper()
	var res struct {
		Tools []tsTool `json:"tools"`
	}
	c.b.doInto(tb, map[string]any{"op": "list_tools", "client": c.id}, &res)
	c.tools, c.outputs = map[string]tsTool{}, map[string]*jsonschema.Schema{}
	for _, t := range res.Tools {
		c.tools[t.Name] = t
		if t.OutputSchema != nil {
			// Round-trip through JSON: closeObjects changes its argument.
			var out map[string]any
			b, _ := json.Marshal(t.OutputSchema)
			json.Unmarshal(b, &out)
			c.outputs[t.Name] = compileSchema(tb, t.Name+".output", closeObjects(out))
		}
	}
	return res.Tools
}

// tryCall calls a tool and checks the result's shape: one text content and
// structured content that satisfies the tool's output schema with every
// object closed. It is safe for concurrent use and returns, rather than
// reports, what went wrong.
func (c *tsClient) tryCall(name string, args map[string]any) (*tsResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	raw, err := c.b.do(map[string]any{"op": "call", "client": c.id, "name": name, "arguments": args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var res tsResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("%s: decode %s: %w", name, raw, err)
	}
	if len(res.Content) == 0 || res.Content[0].Type != "text" || res.Content[0].Text == "" {
		return &res, fmt.Errorf("%s: content %+v, want a text first", name, res.Content)
	}
	for _, more := range res.Content[1:] {
		if more.Type != "image" && more.Type != "text" || (more.Type == "image" && (more.Data == "" || more.MimeType == "")) {
			return &res, fmt.Errorf("%s: content %+v after the text, want images (or an SVG's text)", name, more)
		}
	}
	if tl, ok := c.tools[name]; ok && tl.OutputSchema == nil && !c.plain && !c.seed {
		// A tool that answers in content only, such as read_image.
		if len(res.StructuredContent) != 0 && string(res.StructuredContent) != "null" && !res.IsError {
			return &res, fmt.Errorf("%s: structured content %s from a tool without an output schema", name, res.StructuredContent)
		}
		return &res, nil
	}
	if c.plain {
		if len(res.StructuredContent) != 0 && string(res.StructuredContent) != "null" {
			return &res, fmt.Errorf("%s: structured content %s from a profile that answers in text only", name, res.StructuredContent)
		}
		return &res, nil
	}
	if c.seed && res.IsError {
		if len(res.StructuredContent) != 0 && string(res.StructuredContent) != "null" {
			return &res, fmt.Errorf("%s: an error with structured content %s from a seed profile", name, res.StructuredContent)
		}
		return &res, nil
	}
	if len(res.Content) != 1 && !res.IsError {
		return &res, fmt.Errorf("%s: %d contents, want one text", name, len(res.Content))
	}
	if len(res.StructuredContent) == 0 || res.StructuredContent[0] != '{' {
		return &res, fmt.Errorf("%s: structured content %s, want an object", name, res.StructuredContent)
	}
	// A failed call's structured content the SDK has already checked
	// against the schema as published.
	if sch := c.outputs[name]; sch != nil && !res.IsError {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(res.StructuredContent))
		if err != nil {
			return &res, fmt.Errorf("%s: %w", name, err)
		}
		if err := sch.Validate(inst); err != nil {
			return &res, fmt.Errorf("%s: structured content does not match the output schema: %v\n%s", name, err, res.StructuredContent)
		}
	}
	return &res, nil
}

// call is tryCall that fails the test on an error.
func (c *tsClient) call(tb testing.TB, name string, args map[string]any) *tsResult {
	tb.Helper()
	res, err := c.tryCall(name, args)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// tsOK calls a tool that must succeed and decodes its structured content
// into a T.
func tsOK[T any](tb testing.TB, c *tsClient, name string, args map[string]any) (T, string) {
	tb.Helper()
	res := c.call(tb, name, args)
	var out T
	if res.IsError {
		tb.Fatalf("%s %v failed: %s", name, args, res.text())
	}
	if err := tool.DecodeWire(res.StructuredContent, &out); err != nil {
		tb.Fatalf("%s: decode %s: %v", name, res.StructuredContent, err)
	}
	return out, res.text()
}

// tsFail calls a tool that must fail with code and checks the error's text
// and structured forms; it returns the structured error.
func tsFail(tb testing.TB, c *tsClient, name string, args map[string]any, code string) map[string]any {
	tb.Helper()
	res := c.call(tb, name, args)
	if !res.IsError {
		tb.Errorf("%s %v succeeded, want %s: %s", name, args, code, res.text())
		return nil
	}
	var shape struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal(res.StructuredContent, &shape); err != nil || shape.Error == nil {
		tb.Fatalf("%s: structured error %s: %v", name, res.StructuredContent, err)
	}
	e := shape.Error
	msg, _ := e["message"].(string)
	if e["code"] != code || !strings.HasPrefix(res.text(), code+": ") || msg == "" || !strings.Contains(res.text(), msg) {
		tb.Errorf("%s %v: code %v, want %s; text %q", name, args, e["code"], code, res.text())
	}
	return e
}
