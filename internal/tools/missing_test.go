package tools_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestTools_PartialClone serves a blobless partial clone of a wiki with
// history through the MCP client: the tools that read HEAD answer as
// usual, and the history tools answer, saying in their text and their
// structured content what the missing blobs leave unknown.
func TestTools_PartialClone(t *testing.T) {
	src := gittest.Init(t)
	gittest.Commit(t, src, "one", map[string]string{"a.md": "# Alpha\n\nalpha text\n", "b.md": "# Beta\n\nsee [[a]]\n",
		"img.png": "\x89PNG\x00one"})
	gittest.Commit(t, src, "two", map[string]string{"a.md": "# Alpha\n\nalpha text\nsee [[b]] and [[gone]]\n", "img.png": "\x89PNG\x00two"})
	dir := gittest.PartialClone(t, src)
	missing := gittest.MissingObjects(t, dir)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, toolstest.OpenWiki(t, dir, nil), mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, toolstest.HandshakeProtocol))

	search, _ := toolstest.OK[map[string]any](s, "search_notes", map[string]any{"query": "alpha"})
	if hits, _ := search["results"].([]any); len(hits) != 1 {
		t.Errorf("search_notes alpha: %v", search)
	}
	links, _ := toolstest.OK[map[string]any](s, "get_links", map[string]any{"path": "a"})
	if links["incoming_total"] != float64(1) {
		t.Errorf("get_links a: %v", links)
	}
	broken, _ := toolstest.OK[map[string]any](s, "find_broken_links", map[string]any{})
	if !strings.Contains(toolstest.JSONOf(t, broken), `"gone"`) {
		t.Errorf("find_broken_links: %v", broken)
	}

	h, text := toolstest.OK[historyOut](s, "note_history", map[string]any{"path": "a"})
	if len(h.Revisions) != 2 || !h.Revisions[0].LinesUnknown || !h.Revisions[1].LinesUnknown {
		t.Errorf("note_history a: %+v, want both revisions with unknown counts", h.Revisions)
	}
	if !strings.Contains(text, "lines unknown: a version is missing from this repository") {
		t.Errorf("note_history text does not say the counts are unknown:\n%s", text)
	}

	act, text := toolstest.OK[activityOut](s, "activity_log", map[string]any{})
	if act.Total != 2 || !act.Commits[0].LinesUnknown || len(act.Commits[0].Files) != 2 || !act.Commits[0].Files[0].LinesUnknown {
		t.Errorf("activity_log: %+v", act)
	}
	if !strings.Contains(text, "some lines unknown") || !strings.Contains(text, "(lines unknown)") {
		t.Errorf("activity_log text does not mark the unknown counts:\n%s", text)
	}

	d, text := toolstest.OK[diffOut](s, "diff_versions", map[string]any{"to": "HEAD"})
	if !d.LinesUnknown || len(d.Files) != 2 || d.Diff != "" {
		t.Errorf("diff_versions to HEAD: %+v, want both files listed with unknown lines and no diff", d)
	}
	if !strings.Contains(text, "lines unknown") || !strings.Contains(text, "git cat-file -e") {
		t.Errorf("diff_versions text:\n%s", text)
	}
	e := s.Fail("diff_versions", map[string]any{"path": "a"}, "NOT_FOUND")
	if msg, _ := e["message"].(string); !strings.Contains(msg, "missing from this repository") {
		t.Errorf("diff_versions a: message %q does not say an object is missing", msg)
	}
	if hint, _ := e["hint"].(string); !strings.Contains(hint, "git cat-file -e") {
		t.Errorf("diff_versions a: hint %q does not say how to fetch it", e["hint"])
	}

	b, text := toolstest.OK[blameOut](s, "blame_note", map[string]any{"path": "a"})
	if len(b.Ranges) != 1 || !b.Ranges[0].OriginUnknown || b.Ranges[0].End != 4 {
		t.Errorf("blame_note a: %+v, want one range of four lines, origin unknown", b.Ranges)
	}
	if !strings.Contains(text, "or an earlier commit") {
		t.Errorf("blame_note text:\n%s", text)
	}

	st, text := toolstest.OK[wiki.Status](s, "wiki_status", map[string]any{})
	if st.MissingObjects != len(missing) {
		t.Errorf("wiki_status missing_objects %d, git lists %d", st.MissingObjects, len(missing))
	}
	if !strings.Contains(text, "Missing objects: ") {
		t.Errorf("wiki_status text does not count the missing objects:\n%s", text)
	}
}
