package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/wiki"
)

// callText calls a tool and returns its text and structured content.
func callText(s *rawSession, name string, args map[string]any) (string, map[string]any) {
	s.tb.Helper()
	res := s.ok("tools/call", map[string]any{"name": name, "arguments": args})
	if res["isError"] == true {
		s.tb.Fatalf("%s: %v", name, res)
	}
	content, _ := res["content"].([]any)
	first, _ := content[0].(map[string]any)
	text, _ := first["text"].(string)
	structured, _ := res["structuredContent"].(map[string]any)
	return text, structured
}

// TestServer_ProposalTold checks that a proposing session is told what
// the person decided: a subscriber of wiki://proposals is notified, the
// resource says it with the comment, and the session's next tool call
// says it once (in the structured warnings of a change); another session
// is told nothing.
func TestServer_ProposalTold(t *testing.T) {
	dir := fixtureRepo(t)
	w := openWiki(t, dir)
	ctx := context.Background()
	srv := mcpserver.New(w, mcpserver.Options{Profiles: table(), Propose: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	me, other := openRaw(t, srv), openRaw(t, srv)

	text, _ := callText(me, "write_note", map[string]any{"path": "ideas/one", "content": "# One\n"})
	if !strings.Contains(text, "proposed, not committed") {
		t.Fatalf("write_note in propose mode says:\n%s", text)
	}
	callText(me, "write_note", map[string]any{"path": "ideas/two", "content": "# Two\n"})
	callText(other, "write_note", map[string]any{"path": "ideas/three", "content": "# Three\n"})
	me.ok("resources/subscribe", map[string]any{"uri": "wiki://proposals"})
	list, err := w.Proposals(ctx, false)
	if err != nil || len(list) != 2 {
		t.Fatalf("proposals: %+v, %v", list, err)
	}
	var id string
	for _, p := range list {
		pp, err := w.Proposal(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(pp.Notes) == 2 {
			id = p.ID
		}
	}
	pat := wiki.Identity{Name: "Pat", Email: "pat@example.com"}

	start := time.Now()
	if _, err := w.AcceptProposal(ctx, wiki.DecideRequest{ID: id, Notes: []string{"ideas/one"}, By: pat, Comment: "good one"}); err != nil {
		t.Fatal(err)
	}
	me.notified("notifications/resources/updated", "wiki://proposals", start)
	read := me.ok("resources/read", map[string]any{"uri": "wiki://proposals"})
	b, _ := json.Marshal(read)
	if !strings.Contains(string(b), "accepted ideas/one: good one") || !strings.Contains(string(b), "Waiting for review: ideas/two") {
		t.Errorf("wiki://proposals:\n%s", b)
	}

	// The next call of the session says it, once; a change carries it in
	// its structured warnings.
	text, structured := callText(me, "write_note", map[string]any{"path": "ideas/four", "content": "# Four\n"})
	warnings, _ := json.Marshal(structured["warnings"])
	for _, got := range []string{text, string(warnings)} {
		if !strings.Contains(got, "Your proposal "+id+": Pat accepted ideas/one") || !strings.Contains(got, `"good one"`) && !strings.Contains(got, `\"good one\"`) {
			t.Errorf("the next call does not tell of the accept:\n%s", got)
		}
	}
	if text, _ := callText(me, "read_note", map[string]any{"path": "ideas/two"}); strings.Contains(text, "Your proposal") {
		t.Errorf("told twice:\n%s", text)
	}

	if _, err := w.RejectProposal(ctx, wiki.DecideRequest{ID: id, By: pat, Comment: "not these"}); err != nil {
		t.Fatal(err)
	}
	text, _ = callText(me, "read_note", map[string]any{"path": "ideas/one"})
	if !strings.Contains(text, "Pat rejected ideas/four, ideas/two") || !strings.Contains(text, "closed: partly accepted") {
		t.Errorf("a read after the reject:\n%s", text)
	}
	if text, _ := callText(other, "read_note", map[string]any{"path": "ideas/one"}); strings.Contains(text, "Your proposal") {
		t.Errorf("another session is told:\n%s", text)
	}
}
