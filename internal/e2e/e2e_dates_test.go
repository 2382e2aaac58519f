package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestE2E_NoteDates checks through the TypeScript SDK, over stdio, that
// read_note gives the note's last change and git's dates (not HEAD), and
// that read_note and wiki_status tell of edits not committed.
func TestE2E_NoteDates(t *testing.T) {
	t.Parallel()
	dir := datedFixture(t)
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir))
	waitIndexedTS(t, c)
	deadline := time.Now().Add(60 * time.Second)
	for st, _ := tsOK[wiki.Status](t, c, "wiki_status", nil); !st.History.CaughtUp; st, _ = tsOK[wiki.Status](t, c, "wiki_status", nil) {
		if time.Now().After(deadline) {
			t.Fatalf("the history index did not catch up: %+v", st.History)
		}
		time.Sleep(20 * time.Millisecond)
	}
	commit, created, modified := lastChange(t, dir, "people/carol-nguyen.md")

	r, _ := tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": "people/carol-nguyen"})
	if r.Commit != commit || r.Commit == git(t, dir, "rev-parse", "HEAD") {
		t.Errorf("commit %s, want the note's last change %s (git log -- people/carol-nguyen.md), not HEAD", r.Commit, commit)
	}
	if !sameTime(r.Created, created) || !sameTime(r.Modified, modified) || r.CreatedSource != "git" || r.ModifiedSource != "git" {
		t.Errorf("dates %+v, want %s and %s from git", r.Dates, created, modified)
	}

	committed := r.Content
	gittest.WriteFiles(t, dir, map[string]string{"people/carol-nguyen.md": committed + "\nnot committed\n", "inbox/draft.md": "# Draft\n"})
	r, txt := tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": "people/carol-nguyen"})
	if r.Content != committed || r.LocalChange != "modified" || !strings.Contains(txt, "local change") {
		t.Errorf("local change %q, text:\n%s", r.LocalChange, txt)
	}
	e := tsFail(t, c, "read_note", map[string]any{"path": "inbox/draft"}, "NOT_FOUND")
	if msg, _ := e["message"].(string); !strings.Contains(msg, "exists on disk but is not committed") {
		t.Errorf("message %q", msg)
	}
	st, _ := tsOK[wiki.Status](t, c, "wiki_status", nil)
	if lc := st.LocalChanges; lc == nil || lc.Modified != 1 || lc.Untracked != 1 {
		t.Errorf("local changes %+v", lc)
	}
}
