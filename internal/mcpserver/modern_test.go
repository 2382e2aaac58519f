package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// begin sends a request and returns the channel its answer comes on,
// without waiting for it: a subscriptions/listen, which stays open.
func (s *rawSession) begin(method string, params map[string]any) (id int, answer <-chan json.RawMessage) {
	s.tb.Helper()
	s.mu.Lock()
	s.next++
	id = s.next
	ch := make(chan json.RawMessage, 1)
	s.wait[fmt.Sprint(id)] = ch
	s.mu.Unlock()
	if s.meta != nil {
		params["_meta"] = s.meta
	}
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

// note waits for a notification of method (about uri, unless "") and
// returns it.
func (s *rawSession) note(method, uri string) map[string]any {
	s.tb.Helper()
	match := func(n map[string]any) bool {
		p, _ := n["params"].(map[string]any)
		return n["method"] == method && (uri == "" || p != nil && p["uri"] == uri)
	}
	for i, n := range s.seen {
		if match(n) {
			s.seen = slices.Delete(s.seen, i, i+1)
			return n
		}
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case n := <-s.notes:
			if match(n) {
				return n
			}
			s.seen = append(s.seen, n)
		case <-deadline:
			s.tb.Fatalf("no %s for %q within 10 s", method, uri)
			return nil
		}
	}
}

// silent fails the test if any notification comes within d.
func (s *rawSession) silent(d time.Duration) {
	s.tb.Helper()
	deadline := time.After(d)
	for {
		select {
		case n := <-s.notes:
			s.tb.Errorf("unexpected notification %v", n)
		case <-deadline:
			return
		}
	}
}

// TestServer_SubscribeModern drives subscriptions over stdio on protocol
// 2026-07-28: a subscriptions/listen stream is told of the notes it names
// (in any letter case) and of notes made or removed, when it asked, each
// notification tagged with the stream's id; a tag's stream only of the
// commits that change the tag's notes; a session that did not listen is
// told nothing; a cancelled stream nothing more.
func TestServer_SubscribeModern(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir)
	srv := newServer(t, w, "")
	watcher, bystander, writer := openModern(t, srv), openModern(t, srv), openRaw(t, srv)
	bystander.ok("tools/list", map[string]any{})
	const planURI = "wiki://note/projects/alpha/plan"
	const upperURI = "wiki://note/Projects/Alpha/PLAN"
	const tagURI = "wiki://tag/retro"
	listenID, answer := watcher.begin("subscriptions/listen", map[string]any{"notifications": map[string]any{
		"resourceSubscriptions": []string{planURI, upperURI, tagURI, "wiki://nothing/here"},
		"resourcesListChanged":  true,
	}})
	ack := watcher.note("notifications/subscriptions/acknowledged", "")
	got, _ := json.Marshal(ack["params"].(map[string]any)["notifications"].(map[string]any)["resourceSubscriptions"])
	if string(got) != fmt.Sprintf("[%q,%q,%q]", planURI, upperURI, tagURI) {
		t.Errorf("acknowledged %s: want the three URIs that name resources", got)
	}
	write := func(t *testing.T, path, content string) {
		t.Helper()
		res := writer.as(t).ok("tools/call", map[string]any{"name": "write_note", "arguments": map[string]any{"path": path, "content": content, "overwrite": true}})
		if res["isError"] == true {
			t.Fatalf("write_note: %v", res)
		}
	}
	t.Run("note", func(t *testing.T) {
		w := watcher.as(t)
		start := time.Now()
		write(t, "projects/alpha/plan", "# Plan\n\nchanged\n")
		n := w.note("notifications/resources/updated", planURI)
		t.Logf("told %v after the call began", time.Since(start))
		meta, _ := n["params"].(map[string]any)["_meta"].(map[string]any)
		if id, _ := meta["io.modelcontextprotocol/subscriptionId"].(float64); int(id) != listenID {
			t.Errorf("notification %v: want the subscription id %d in _meta", n, listenID)
		}
		w.note("notifications/resources/updated", upperURI)
	})
	t.Run("tag", func(t *testing.T) {
		w := watcher.as(t)
		w.settle(2 * wiki.WatchEvery)
		write(t, "projects/beta/risks", "# Risks\n\nno tag\n")
		w.silent(3 * wiki.WatchEvery)
		write(t, "journal/2024/2024-03-10", "---\ntags: [retro]\n---\n# Retro\n")
		w.note("notifications/resources/updated", tagURI)
	})
	t.Run("list changed", func(t *testing.T) {
		w := watcher.as(t)
		w.settle(2 * wiki.WatchEvery)
		gittest.Commit(t, dir, "by hand", map[string]string{"by-hand.md": "# By hand\n"})
		w.note("notifications/resources/list_changed", "")
	})
	t.Run("not asked", func(t *testing.T) {
		bystander.as(t).silent(3 * wiki.WatchEvery)
	})
	t.Run("cancelled", func(t *testing.T) {
		w := watcher.as(t)
		w.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": listenID}})
		select {
		case <-answer:
		case <-time.After(time.Second):
			// A cancelled request is not answered; either is right.
		}
		w.settle(2 * wiki.WatchEvery)
		write(t, "projects/alpha/plan", "# Plan\n\nagain\n")
		w.silent(3 * wiki.WatchEvery)
	})
	if slices.ContainsFunc(watcher.seen, func(n map[string]any) bool {
		return n["method"] == "notifications/resources/updated" && n["params"].(map[string]any)["uri"] == "wiki://nothing/here"
	}) {
		t.Error("told of a URI that names nothing")
	}
}
