package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/wiki"
)

// rawSession is one client of a server over a pipe, speaking JSON-RPC
// lines, as a test or subtest uses it (see as): it keeps the
// notifications apart from the answers.
type rawSession struct {
	tb testing.TB
	*rawConn
}

// rawConn is the connection a session's users share.
type rawConn struct {
	in    *io.PipeWriter
	mu    sync.Mutex
	next  int
	wait  map[string]chan json.RawMessage
	notes chan map[string]any
	// seen holds the notifications read but not waited for yet; only the
	// test's goroutine uses it.
	seen []map[string]any
	// meta, when set, goes into every request's params as _meta.
	meta map[string]any
}

// as returns the session for a subtest, whose failures it reports.
func (s *rawSession) as(tb testing.TB) *rawSession { return &rawSession{tb, s.rawConn} }

// openRaw serves a new session of srv and initializes it.
func openRaw(tb testing.TB, srv *mcpserver.Server) *rawSession {
	tb.Helper()
	s := openRawConn(tb, srv)
	s.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "surface", "version": "1"}})
	s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return s
}

// openModern serves a new session of srv that speaks protocol 2026-07-28:
// no handshake, and every request carries the protocol's _meta.
func openModern(tb testing.TB, srv *mcpserver.Server) *rawSession {
	tb.Helper()
	s := openRawConn(tb, srv)
	s.meta = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "modern", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	return s
}

// openRawConn serves a new session of srv, not initialized.
func openRawConn(tb testing.TB, srv *mcpserver.Server) *rawSession {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	s := &rawSession{tb, &rawConn{in: inW, wait: map[string]chan json.RawMessage{}, notes: make(chan map[string]any, 100)}}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params map[string]any  `json:"params"`
			}
			line := append([]byte(nil), sc.Bytes()...)
			if json.Unmarshal(line, &m) != nil {
				continue
			}
			if m.Method != "" {
				s.notes <- map[string]any{"method": m.Method, "params": m.Params}
				continue
			}
			s.mu.Lock()
			ch := s.wait[string(m.ID)]
			s.mu.Unlock()
			if ch != nil {
				ch <- line
			}
		}
	}()
	tb.Cleanup(func() {
		inW.Close()
		cancel()
		<-done
	})
	return s
}

func (s *rawSession) send(msg map[string]any) {
	s.tb.Helper()
	b, _ := json.Marshal(msg)
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		s.tb.Fatal(err)
	}
}

// call sends a request and returns its answer: the result, or the error
// object.
func (s *rawSession) call(method string, params any) (result, rpcErr map[string]any) {
	s.tb.Helper()
	s.mu.Lock()
	s.next++
	id := fmt.Sprint(s.next)
	ch := make(chan json.RawMessage, 1)
	s.wait[id] = ch
	s.mu.Unlock()
	if s.meta != nil {
		p, _ := params.(map[string]any)
		p = maps.Clone(p)
		if p == nil {
			p = map[string]any{}
		}
		p["_meta"] = s.meta
		params = p
	}
	s.send(map[string]any{"jsonrpc": "2.0", "id": s.next, "method": method, "params": params})
	select {
	case line := <-ch:
		var a struct {
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if err := json.Unmarshal(line, &a); err != nil {
			s.tb.Fatal(err)
		}
		return a.Result, a.Error
	case <-time.After(60 * time.Second):
		s.tb.Fatalf("%s: no answer within 60 s", method)
		return nil, nil
	}
}

// ok is call that fails the test on an error answer.
func (s *rawSession) ok(method string, params any) map[string]any {
	s.tb.Helper()
	res, e := s.call(method, params)
	if e != nil {
		s.tb.Fatalf("%s %v: %v", method, params, e)
	}
	return res
}

// notified waits for a notification of method about uri ("" for any),
// among those not waited for yet, and returns the time from start to its
// arrival (to now, for one that came before).
func (s *rawSession) notified(method, uri string, start time.Time) time.Duration {
	s.tb.Helper()
	match := func(n map[string]any) bool {
		p, _ := n["params"].(map[string]any)
		return n["method"] == method && (uri == "" || p != nil && p["uri"] == uri)
	}
	for i, n := range s.seen {
		if match(n) {
			s.seen = slices.Delete(s.seen, i, i+1)
			return time.Since(start)
		}
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case n := <-s.notes:
			if match(n) {
				return time.Since(start)
			}
			s.seen = append(s.seen, n)
		case <-deadline:
			s.tb.Fatalf("no %s for %q within 10 s", method, uri)
			return 0
		}
	}
}

// settle forgets the notifications not waited for, those that come
// within d included.
func (s *rawSession) settle(d time.Duration) {
	s.seen = nil
	deadline := time.After(d)
	for {
		select {
		case <-s.notes:
		case <-deadline:
			return
		}
	}
}

// quiet fails the test if a notification of method about uri comes within d.
func (s *rawSession) quiet(method, uri string, d time.Duration) {
	s.tb.Helper()
	deadline := time.After(d)
	for {
		select {
		case n := <-s.notes:
			if p, _ := n["params"].(map[string]any); n["method"] == method && p != nil && p["uri"] == uri {
				s.tb.Errorf("unexpected %v", n)
			}
		case <-deadline:
			return
		}
	}
}

func newServer(tb testing.TB, w *wiki.Wiki, profile string) *mcpserver.Server {
	tb.Helper()
	return mcpserver.New(w, mcpserver.Options{Profiles: table(), Profile: profile, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

func TestServer_Prompts(t *testing.T) {
	dir := fixtureRepo(t)
	gittest.Commit(t, dir, "plan: more", map[string]string{"projects/alpha/plan.md": "# Plan\n\nShip it. See [[nowhere-at-all]].\n"})
	w := openWiki(t, dir)
	s := openRaw(t, newServer(t, w, ""))
	list := s.ok("prompts/list", map[string]any{})
	var names []string
	for _, p := range list["prompts"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	want := []string{"answer_question", "fix_broken_links", "review_changes", "summarize_history", "write_daily_note"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("prompts %v, want %v", names, want)
	}
	// embedded returns the URIs of a prompt's embedded resources, and all
	// its text.
	get := func(t *testing.T, name string, args map[string]any) (uris []string, text string) {
		t.Helper()
		res := s.as(t).ok("prompts/get", map[string]any{"name": name, "arguments": args})
		for _, m := range res["messages"].([]any) {
			c := m.(map[string]any)["content"].(map[string]any)
			switch c["type"] {
			case "text":
				text += c["text"].(string) + "\n"
			case "resource":
				r := c["resource"].(map[string]any)
				uris = append(uris, r["uri"].(string))
				text += r["text"].(string) + "\n"
			}
		}
		return uris, text
	}
	t.Run("summarize_history", func(t *testing.T) {
		uris, text := get(t, "summarize_history", map[string]any{"path": "projects/alpha/plan"})
		if !slices.Equal(uris, []string{"wiki://note/projects/alpha/plan", "wiki://history/projects/alpha/plan"}) {
			t.Errorf("resources %v", uris)
		}
		if !strings.Contains(text, "Ship it.") || !strings.Contains(text, "plan: more") || !strings.Contains(text, "+Ship it.") {
			t.Errorf("text lacks the note, its history or its diff:\n%s", text)
		}
		// The embedded history is the resource as resources/read gives it.
		read := s.as(t).ok("resources/read", map[string]any{"uri": "wiki://history/projects/alpha/plan"})
		if got := read["contents"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(text, got) {
			t.Errorf("resources/read gives another history:\n%s", got)
		}
	})
	t.Run("review_changes", func(t *testing.T) {
		uris, text := get(t, "review_changes", map[string]any{"since": "2000-01-01"})
		if len(uris) < 3 || uris[0] != "wiki://activity/2000-01-01" || !strings.HasPrefix(uris[1], "wiki://commit/") {
			t.Errorf("resources %v", uris)
		}
		if !strings.Contains(text, "+Ship it.") || !strings.Contains(text, "revert_change") {
			t.Errorf("text:\n%s", text)
		}
	})
	t.Run("fix_broken_links", func(t *testing.T) {
		_, text := get(t, "fix_broken_links", map[string]any{"folder": "projects"})
		if !strings.Contains(text, "nowhere-at-all") || !strings.Contains(text, "projects/alpha/plan line 3") {
			t.Errorf("text:\n%s", text)
		}
	})
	t.Run("write_daily_note", func(t *testing.T) {
		uris, text := get(t, "write_daily_note", map[string]any{"date": "2000-01-01"})
		if len(uris) == 0 || uris[0] != "wiki://activity/2000-01-01" || !strings.Contains(text, "daily_note") {
			t.Errorf("resources %v, text:\n%s", uris, text)
		}
	})
	t.Run("answer_question", func(t *testing.T) {
		_, text := get(t, "answer_question", map[string]any{"question": "what is the plan for alpha?"})
		if !strings.Contains(text, "projects/alpha/plan") {
			t.Errorf("text:\n%s", text)
		}
	})
	t.Run("read-only", func(t *testing.T) {
		ro := openRaw(t, mcpserver.New(w, mcpserver.Options{Profiles: table(), ReadOnly: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
		var names []string
		for _, p := range ro.as(t).ok("prompts/list", map[string]any{})["prompts"].([]any) {
			names = append(names, p.(map[string]any)["name"].(string))
		}
		if want := []string{"answer_question", "review_changes", "summarize_history"}; !slices.Equal(names, want) {
			t.Errorf("a read-only server's prompts: %v, want %v", names, want)
		}
	})
	t.Run("a missing argument", func(t *testing.T) {
		if _, e := s.as(t).call("prompts/get", map[string]any{"name": "summarize_history", "arguments": map[string]any{}}); e == nil {
			t.Error("summarize_history without a path answered")
		}
	})
}

func TestServer_Complete(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir)
	s := openRaw(t, newServer(t, w, ""))
	complete := func(ref map[string]any, name, value string) []string {
		t.Helper()
		res := s.ok("completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": name, "value": value}})
		var out []string
		for _, v := range res["completion"].(map[string]any)["values"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	note := map[string]any{"type": "ref/resource", "uri": "wiki://note/{+path}"}
	if got := complete(note, "path", "projects/al"); len(got) != 4 || !slices.Contains(got, "projects/alpha/plan") {
		t.Errorf("note paths for projects/al: %v", got)
	}
	prompt := map[string]any{"type": "ref/prompt", "name": "fix_broken_links"}
	if got := complete(prompt, "folder", "proj"); !slices.Contains(got, "projects/alpha") || !slices.Contains(got, "projects") {
		t.Errorf("folders for proj: %v", got)
	}
	if got := complete(map[string]any{"type": "ref/resource", "uri": "wiki://tag/{tag}"}, "tag", ""); len(got) == 0 {
		t.Error("no tags")
	}
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	if got := complete(map[string]any{"type": "ref/resource", "uri": "wiki://commit/{rev}"}, "rev", head[:4]); !slices.Equal(got, []string{head[:7]}) {
		t.Errorf("revisions for %s: %v", head[:4], got)
	}

	// A seed's profile keeps its surface: no prompts, no completions.
	c := openRaw(t, newServer(t, w, "cairn"))
	if _, e := c.call("prompts/list", map[string]any{}); e == nil {
		t.Error("the cairn profile lists prompts")
	}
	if _, e := c.call("completion/complete", map[string]any{"ref": note, "argument": map[string]any{"name": "path", "value": "p"}}); e == nil {
		t.Error("the cairn profile completes")
	}
}

func TestServer_Subscribe(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir)
	srv := newServer(t, w, "")
	watcher, writer := openRaw(t, srv), openRaw(t, srv)
	const planURI = "wiki://note/projects/alpha/plan"
	watcher.ok("resources/subscribe", map[string]any{"uri": planURI})
	watcher.ok("resources/subscribe", map[string]any{"uri": "wiki://recent"})

	write := func(t *testing.T, path string) {
		t.Helper()
		res := writer.as(t).ok("tools/call", map[string]any{"name": "write_note", "arguments": map[string]any{"path": path, "content": "# X\n", "overwrite": true}})
		if res["isError"] == true {
			t.Fatalf("write_note: %v", res)
		}
	}
	t.Run("another client", func(t *testing.T) {
		w := watcher.as(t)
		start := time.Now()
		write(t, "projects/alpha/plan")
		d := w.notified("notifications/resources/updated", planURI, start)
		w.notified("notifications/resources/updated", "wiki://recent", start)
		t.Logf("told of another client's change %v after the call began", d)
	})
	t.Run("git in the checkout", func(t *testing.T) {
		w := watcher.as(t)
		w.settle(2 * wiki.WatchEvery)
		gittest.Commit(t, dir, "by hand", map[string]string{"projects/alpha/plan.md": "# Plan\n\nby hand\n", "new-by-hand.md": "# New\n"})
		start := time.Now()
		d := w.notified("notifications/resources/updated", planURI, start)
		t.Logf("told of a git commit %v after it", d)
		w.notified("notifications/resources/list_changed", "", start)
	})
	t.Run("other notes", func(t *testing.T) {
		w := watcher.as(t)
		w.settle(2 * wiki.WatchEvery)
		write(t, "projects/beta/risks")
		w.notified("notifications/resources/updated", "wiki://recent", time.Now())
		w.quiet("notifications/resources/updated", planURI, 3*wiki.WatchEvery)
	})
	t.Run("unsubscribed", func(t *testing.T) {
		w := watcher.as(t)
		w.ok("resources/unsubscribe", map[string]any{"uri": planURI})
		w.settle(2 * wiki.WatchEvery)
		write(t, "projects/alpha/plan")
		w.notified("notifications/resources/updated", "wiki://recent", time.Now())
		w.quiet("notifications/resources/updated", planURI, 3*wiki.WatchEvery)
	})

	seed := openRaw(t, newServer(t, w, "cairn"))
	if _, e := seed.call("resources/subscribe", map[string]any{"uri": planURI}); e == nil {
		t.Error("the cairn profile takes subscriptions")
	}
}
