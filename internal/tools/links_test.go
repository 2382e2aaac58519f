package tools_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// linkSession serves the fixture wiki (with its link graph, as wikid serve
// does) and connects a client.
func linkSession(t *testing.T) (*toolstest.Session, string) {
	t.Helper()
	dir := toolstest.FixtureRepo(t)
	w := toolstest.OpenWiki(t, dir, nil)
	url := toolstest.ServeHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{})
	return toolstest.NewSession(t, toolstest.ConnectHTTP(t, url, nil, toolstest.HandshakeProtocol)), dir
}

func TestServer_LinkTools(t *testing.T) {
	s, _ := linkSession(t)
	t.Run("get_links", func(t *testing.T) {
		res, txt := toolstest.OK[wiki.LinksResult](s, "get_links", map[string]any{"path": "areas/café"})
		var got []string
		for _, b := range res.Incoming {
			for _, l := range b.Links {
				got = append(got, fmt.Sprintf("%s:%d", b.Path, l.Line))
			}
		}
		want := []string{"areas/finance/budget:13", "areas/health/sleep:12", "inbox/quick-capture:10", "index:31",
			"reference/links-edge-cases:27", "reference/links-edge-cases:28"}
		if !res.Exists || res.IncomingTotal != 5 || !slices.Equal(got, want) || res.OutgoingTotal != 1 || res.Outgoing[0].Path != "people/alice" {
			t.Errorf("get_links %+v", res)
		}
		for _, w := range []string{"Links of Café Lumière (areas/café)", "Backlinks from 5 notes:", "- **Links: edge cases** (reference/links-edge-cases)\n  2 links - lines 27, 28",
			"- line 7: people/alice → Alice Martin (people/alice)"} {
			if !strings.Contains(txt, w) {
				t.Errorf("text lacks %q:\n%s", w, txt)
			}
		}
		res, txt = toolstest.OK[wiki.LinksResult](s, "get_links", map[string]any{"path": "areas/health/sleep", "direction": "in", "depth": 2, "include_content": true})
		if len(res.Neighbors) != 2 || !strings.HasSuffix(res.Neighbors[0].Notes[0].Content, "... [truncated]") || !strings.Contains(txt, "4 notes 2 links away:") {
			t.Errorf("depth 2 %+v\n%s", res.Neighbors, txt)
		}
		res, txt = toolstest.OK[wiki.LinksResult](s, "get_links", map[string]any{"path": "people/dave"})
		if res.Exists || res.IncomingTotal != 1 || !strings.HasPrefix(txt, "Note people/dave does not exist.\n\nHowever, 1 note has links to this path:\n- **2024-01-16** (journal/2024/2024-01-16)") {
			t.Errorf("missing note %+v\n%s", res, txt)
		}
		s.Fail("get_links", map[string]any{"path": "index", "direction": "up"}, "INVALID_PARAMS")
		s.Fail("get_links", map[string]any{"path": "../x"}, "INVALID_PATH")
	})
	t.Run("find_path", func(t *testing.T) {
		res, txt := toolstest.OK[wiki.PathResult](s, "find_path", map[string]any{"source": "areas/health/sleep", "target": "projects/alpha/plan"})
		if !res.Found || res.Length != 4 || res.Path[4].Path != "projects/alpha/plan" ||
			!strings.HasPrefix(txt, "Path from areas/health/sleep to projects/alpha/plan, 4 links:\nsleep (areas/health/sleep)\n→ Café Lumière (areas/café)") {
			t.Errorf("find_path %+v\n%s", res, txt)
		}
		res, txt = toolstest.OK[wiki.PathResult](s, "find_path", map[string]any{"source": "archive/old-project", "target": "index"})
		if res.Found || len(res.Path) != 0 || txt != "No link path from archive/old-project to index within 10 links." {
			t.Errorf("no path %+v %q", res, txt)
		}
		s.Fail("find_path", map[string]any{"source": "index", "target": "people/dave"}, "NOT_FOUND")
	})
	t.Run("get_hubs", func(t *testing.T) {
		res, txt := toolstest.OK[wiki.HubsResult](s, "get_hubs", map[string]any{"limit": 2})
		if len(res.Hubs) != 2 || res.Hubs[0].Path != "projects/alpha/overview" || res.Hubs[0].Score != 12 ||
			!strings.HasPrefix(txt, "Top notes by in_degree:\n1. Project Alpha (projects/alpha/overview) — 12 (in 12, out 8)") {
			t.Errorf("get_hubs %+v\n%s", res, txt)
		}
		res, _ = toolstest.OK[wiki.HubsResult](s, "get_hubs", map[string]any{"metric": "pagerank", "folder": "people"})
		if len(res.Hubs) != 4 || res.Hubs[0].Path != "people/alice" || res.Hubs[0].Score <= 0 || res.Hubs[0].Score >= 1 {
			t.Errorf("pagerank %+v", res)
		}
		s.Fail("get_hubs", map[string]any{"metric": "closeness"}, "INVALID_PARAMS")
	})
	t.Run("find_broken_links", func(t *testing.T) {
		res, txt := toolstest.OK[wiki.BrokenLinksResult](s, "find_broken_links", map[string]any{"limit": 5, "include_orphans": true})
		if res.Total != 8 || len(res.Links) != 5 || res.NextCursor == "" || res.OrphansTotal == 0 ||
			!strings.Contains(txt, "- journal/2024/2024-01-16 line 11: Project Gamma — no such note") || !strings.Contains(txt, "(archive/old-project)") {
			t.Errorf("first page %+v\n%s", res, txt)
		}
		next, _ := toolstest.OK[wiki.BrokenLinksResult](s, "find_broken_links", map[string]any{"limit": 5, "cursor": res.NextCursor})
		if len(next.Links) != 3 || next.NextCursor != "" || next.Links[2].Path != "reference/links-edge-cases" || next.OrphansTotal != 0 {
			t.Errorf("second page %+v", next)
		}
	})
	t.Run("read_note backlinks", func(t *testing.T) {
		r, txt := toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": "projects/beta/risks", "metadata_only": true})
		if len(r.Backlinks) != 1 || r.Backlinks[0].Path != "projects/beta/overview" ||
			!strings.Contains(txt, "backlinks:\n  projects/beta/overview line 14: See the [[roadmap]] and the [[risks|risk list]].") {
			t.Errorf("backlinks %+v\n%s", r.Backlinks, txt)
		}
	})
	t.Run("search_notes backlinks_to", func(t *testing.T) {
		res, _ := toolstest.OK[wiki.SearchResult](s, "search_notes", map[string]any{"backlinks_to": "projects/alpha/decisions", "sort": "title", "limit": 20})
		var got []string
		for _, h := range res.Results {
			got = append(got, h.Path)
		}
		slices.Sort(got)
		// four of the five link by the title, [[Decision Log]]
		want := []string{"index", "journal/2024/2024-02-01", "people/alice", "projects/alpha/overview", "reference/links-edge-cases"}
		if !slices.Equal(got, want) {
			t.Errorf("backlinks_to %q, want %q", got, want)
		}
	})
}

// moveOut is move_note's structured content.
type moveOut struct {
	wiki.Result
	From    string `json:"from"`
	Path    string `json:"path"`
	Version string `json:"version"`
}

func TestServer_MoveNote(t *testing.T) {
	s, dir := linkSession(t)
	before := toolstest.Git(t, dir, "rev-parse", "HEAD")
	args := map[string]any{"path": "projects/beta/risks", "new_path": "archive/beta-risks", "dry_run": true}
	dry, txt := toolstest.OK[moveOut](s, "move_note", args)
	if dry.Commit != "" || toolstest.Git(t, dir, "rev-parse", "HEAD") != before || !strings.Contains(dry.Diff, "rename from projects/beta/risks.md\nrename to archive/beta-risks.md") ||
		!strings.Contains(txt, "Dry run, nothing was committed.") || !strings.Contains(txt, "Would update links in 2 notes:\n- projects/beta/overview (1 link)") {
		t.Errorf("dry run %+v\n%s", dry, txt)
	}
	delete(args, "dry_run")
	args["message"] = "Beta is on hold"
	out, txt := toolstest.OK[moveOut](s, "move_note", args)
	toolstest.CheckCommit(t, dir, before, "move_note", out.Commit)
	if out.From != "projects/beta/risks" || out.Path != "archive/beta-risks" || out.Version != toolstest.Git(t, dir, "rev-parse", "HEAD:archive/beta-risks.md") ||
		len(out.LinksUpdated) != 2 || out.LinksUpdated[0].Links[0].New != "beta-risks" || out.LinksUpdated[1].Links[0].New != "beta/overview" {
		t.Errorf("move %+v", out)
	}
	if !strings.HasPrefix(txt, "Moved note from projects/beta/risks to archive/beta-risks as commit ") ||
		!strings.Contains(txt, "- moved projects/beta/risks → archive/beta-risks") ||
		!strings.Contains(txt, "Updated links in 2 notes:\n- projects/beta/overview (1 link)\n- archive/beta-risks (1 link)") {
		t.Errorf("text:\n%s", txt)
	}
	// the bare name follows the new name; the moved note's own
	// [[overview#Open questions]] would find projects/alpha/overview from
	// archive/ and names beta's by a longer ending
	if got := toolstest.Git(t, dir, "show", "HEAD:projects/beta/overview.md"); !strings.Contains(got, "[[beta-risks|risk list]]") {
		t.Errorf("overview:\n%s", got)
	}
	if got := toolstest.Git(t, dir, "show", "HEAD:archive/beta-risks.md"); !strings.Contains(got, "[[beta/overview#Open questions|open questions]]") {
		t.Errorf("moved note:\n%s", got)
	}
	if got := toolstest.Git(t, dir, "log", "--follow", "--format=%s", "--", "archive/beta-risks.md"); got != "move: projects/beta/risks -> archive/beta-risks\nseed" {
		t.Errorf("git log --follow:\n%s", got)
	}
	toolstest.CheckClean(t, dir)

	// a folder, leaving the links
	out, txt = toolstest.OK[moveOut](s, "move_note", map[string]any{"path": "people/", "new_path": "team", "update_links": false})
	if len(out.Changes) != 4 || len(out.LinksUpdated) != 0 || len(out.BrokenLinks) == 0 ||
		!strings.HasPrefix(txt, "Moved folder (4 notes) from people/ to team as commit ") || !strings.Contains(txt, "To update these links, set update_links: true.") {
		t.Errorf("folder move %+v\n%s", out, txt)
	}
	s.Fail("move_note", map[string]any{"path": "index", "new_path": "team/alice"}, "ALREADY_EXISTS")
	s.Fail("move_note", map[string]any{"path": "nothing/here", "new_path": "x"}, "NOT_FOUND")
}

func TestServer_DeleteListsBrokenLinks(t *testing.T) {
	s, _ := linkSession(t)
	out, txt := toolstest.OK[toolstest.MutationOut](s, "delete_note", map[string]any{"path": "projects/beta/risks", "confirm": true})
	if len(out.BrokenLinks) != 1 || out.BrokenLinks[0].Path != "projects/beta/overview" || out.BrokenLinks[0].Links[0].Line != 14 {
		t.Errorf("broken links %+v", out.BrokenLinks)
	}
	if n := strings.Count(txt, "projects/beta/overview"); n != 1 || !strings.Contains(txt, "1 note has links that named the deleted note: projects/beta/overview (1 link)") {
		t.Errorf("text names the linking note %d times:\n%s", n, txt)
	}
}

func TestServer_ApplyChangesWithMove(t *testing.T) {
	s, dir := linkSession(t)
	before := toolstest.Git(t, dir, "rev-parse", "HEAD")
	out, _ := toolstest.OK[toolstest.MutationOut](s, "apply_changes", map[string]any{"changes": []any{
		map[string]any{"tool": "move_note", "arguments": map[string]any{"path": "projects/beta/risks", "new_path": "archive/beta-risks"}},
		map[string]any{"tool": "edit_note", "arguments": map[string]any{"path": "archive/beta-risks",
			"edits": []any{map[string]any{"op": "append", "content": "On hold."}}}},
	}})
	toolstest.CheckCommit(t, dir, before, "apply_changes", out.Commit)
	if len(out.LinksUpdated) != 2 {
		t.Errorf("links updated %+v", out.LinksUpdated)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:archive/beta-risks.md"); !strings.HasSuffix(got, "]].\r\nOn hold.\r\n") {
		t.Errorf("moved and edited note ends %q", got[max(0, len(got)-20):])
	}
	s.Fail("apply_changes", map[string]any{"changes": []any{
		map[string]any{"tool": "edit_note", "arguments": map[string]any{"path": "index", "edits": []any{map[string]any{"op": "append", "content": "x"}}}},
		map[string]any{"tool": "move_note", "arguments": map[string]any{"path": "index", "new_path": "home"}},
	}}, "INVALID_PARAMS")
}
