package e2e_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// waText calls a Wiki-AI tool that must succeed and returns its text.
func waText(t *testing.T, c *tsClient, name string, args map[string]any) string {
	t.Helper()
	res := c.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, res.text())
	}
	return res.text()
}

// wantLines fails unless text holds each of the lines, in order.
func wantLines(t *testing.T, what, text string, lines ...string) {
	t.Helper()
	rest := text
	for _, l := range lines {
		i := strings.Index(rest, l)
		if i < 0 {
			t.Errorf("%s lacks %q (in order):\n%s", what, l, text)
			return
		}
		rest = rest[i+len(l):]
	}
}

// TestE2E_ProfileWikiAI drives `wikid serve --profile wiki-ai` with the
// official TypeScript client through each of Wiki-AI's thirteen tools and
// the responses its document words, checking every change with git.
func TestE2E_ProfileWikiAI(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "notes", map[string]string{
		"projects/wiki-ai.md":            "---\ntitle: Wiki-AI Overview\ntags: [product]\n---\n# Wiki-AI Overview\n\nSee [[projects/wiki-ai/ideas]].\n",
		"projects/wiki-ai/spec.md":       "---\ntitle: Technical Spec\n---\n# Technical Spec\n\nThe MCP interface. Link: [[projects/wiki-ai/ideas]] and again [[projects/wiki-ai/ideas]].\n",
		"projects/wiki-ai/research/a.md": "# A\n\nMCP research.\n",
		"meetings/2024-01-15.md":         "---\ntitle: Meeting Notes Jan 15\ntags: [meeting]\n---\n# Meeting Notes Jan 15\n\nDecided to use MCP as primary interface.\n",
	})
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir, "--profile", "wiki-ai"))
	c.plain = true
	checkSeedTools(t, c, "wiki-ai")

	t.Run("create_note and get_note", func(t *testing.T) {
		before := headOf(t, dir)
		text := waText(t, c, "create_note", map[string]any{"path": "projects/wiki-ai/ideas", "title": "My Ideas",
			"content": "Here are my initial ideas for the wiki-ai project.\n", "tags": []string{"brainstorm", "product"}})
		if text != `Created note "My Ideas" at projects/wiki-ai/ideas` {
			t.Errorf("create_note: %q", text)
		}
		oneCommit(t, dir, before, "create_note")
		if res := c.call(t, "create_note", map[string]any{"path": "projects/wiki-ai/ideas", "title": "Again", "content": "x"}); !res.IsError || !strings.HasPrefix(res.text(), "ALREADY_EXISTS: ") {
			t.Errorf("create_note over a note: %q", res.text())
		}
		got := waText(t, c, "get_note", map[string]any{"path": "projects/wiki-ai/ideas"})
		wantLines(t, "get_note", got, "# My Ideas\n\n**Path:** projects/wiki-ai/ideas\n**Tags:** brainstorm, product\n**Created:** ",
			"\n**Updated:** ", "\n\n---\n\nHere are my initial ideas for the wiki-ai project.\n")
		if !regexp.MustCompile(`\*\*Created:\*\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`).MatchString(got) {
			t.Errorf("Created is not an RFC 3339 time:\n%s", got)
		}
		if res := c.call(t, "get_note", map[string]any{"path": "nowhere"}); !res.IsError || !strings.HasPrefix(res.text(), "NOT_FOUND: ") {
			t.Errorf("get_note of nothing: %q", res.text())
		}
	})

	t.Run("update_note", func(t *testing.T) {
		before := headOf(t, dir)
		if got := waText(t, c, "update_note", map[string]any{"path": "projects/wiki-ai/ideas", "content": "New body.\n", "title": "Ideas", "add_tags": []string{"mcp"}, "remove_tags": []string{"product"}}); got != "Updated note at projects/wiki-ai/ideas" {
			t.Errorf("update_note: %q", got)
		}
		oneCommit(t, dir, before, "update_note")
		file := gittest.Git(t, dir, "show", "HEAD:projects/wiki-ai/ideas.md")
		if !strings.Contains(file, "title: Ideas") || !strings.Contains(file, "mcp") || strings.Contains(file, "product") || !strings.HasSuffix(file, "---\nNew body.\n") {
			t.Errorf("after update_note:\n%s", file)
		}
		before = headOf(t, dir)
		waText(t, c, "update_note", map[string]any{"path": "projects/wiki-ai/ideas", "tags": []string{"only"}})
		if file := gittest.Git(t, dir, "show", "HEAD:projects/wiki-ai/ideas.md"); !strings.Contains(file, "only") || strings.Contains(file, "mcp") {
			t.Errorf("tags replaced:\n%s", file)
		}
		oneCommit(t, dir, before, "update_note")
		before = headOf(t, dir)
		if res := c.call(t, "update_note", map[string]any{"path": "projects/wiki-ai/ideas", "tags": []string{"a"}, "add_tags": []string{"b"}}); !res.IsError || !strings.HasPrefix(res.text(), "INVALID_PARAMS: ") {
			t.Errorf("tags with add_tags: %q", res.text())
		}
		if headOf(t, dir) != before {
			t.Error("a refused update made a commit")
		}

		// A move leaves links by default, and says which.
		got := waText(t, c, "update_note", map[string]any{"path": "projects/wiki-ai/ideas", "new_path": "archive/old-ideas"})
		wantLines(t, "move without update_backlinks", got, "Moved note from projects/wiki-ai/ideas to archive/old-ideas\n\n"+
			"Warning: 2 notes have links that now point to the old path:\n", "- projects/wiki-ai (1 link)\n", "- projects/wiki-ai/spec (2 links)\n",
			"\nUse update_backlinks: true to automatically update these links.")
		oneCommit(t, dir, before, "update_note")
		if spec := gittest.Git(t, dir, "show", "HEAD:projects/wiki-ai/spec.md"); !strings.Contains(spec, "[[projects/wiki-ai/ideas]]") {
			t.Errorf("links were rewritten without update_backlinks:\n%s", spec)
		}
		before = headOf(t, dir)
		got = waText(t, c, "update_note", map[string]any{"path": "archive/old-ideas", "new_path": "projects/wiki-ai/ideas", "update_backlinks": true})
		if !strings.HasPrefix(got, "Moved note from archive/old-ideas to projects/wiki-ai/ideas") {
			t.Errorf("move back: %q", got)
		}
		oneCommit(t, dir, before, "update_note")
		before = headOf(t, dir)
		got = waText(t, c, "update_note", map[string]any{"path": "projects/wiki-ai/ideas", "new_path": "archive/old-ideas", "update_backlinks": true})
		wantLines(t, "move with update_backlinks", got, "Moved note from projects/wiki-ai/ideas to archive/old-ideas\n\nUpdated links in 2 notes:\n",
			"- projects/wiki-ai (1 link)\n", "- projects/wiki-ai/spec (2 links)")
		oneCommit(t, dir, before, "update_note")
		if spec := gittest.Git(t, dir, "show", "HEAD:projects/wiki-ai/spec.md"); strings.Count(spec, "[[archive/old-ideas]]") != 2 {
			t.Errorf("links not rewritten:\n%s", spec)
		}

		// A move with new content and tags: one commit, all of it.
		before = headOf(t, dir)
		waText(t, c, "update_note", map[string]any{"path": "archive/old-ideas", "new_path": "archive/ideas-2", "update_backlinks": true,
			"content": "Moved body.\n", "add_tags": []string{"moved"}})
		oneCommit(t, dir, before, "update_note")
		if file := gittest.Git(t, dir, "show", "HEAD:archive/ideas-2.md"); !strings.Contains(file, "moved") || !strings.HasSuffix(file, "Moved body.\n") {
			t.Errorf("after a move with content and tags:\n%s", file)
		}
		before = headOf(t, dir)
		waText(t, c, "update_note", map[string]any{"path": "archive/ideas-2", "new_path": "archive/old-ideas", "update_backlinks": true,
			"content": "New body.\n", "remove_tags": []string{"moved"}})
		oneCommit(t, dir, before, "update_note")
	})

	t.Run("search_notes", func(t *testing.T) {
		got := waText(t, c, "search_notes", map[string]any{"query": "mcp", "limit": 2})
		wantLines(t, "search_notes", got, "Found 3 notes (showing 1-2):\n\n- **", "**MCP**", "\nNext page cursor: ")
		cursor := got[strings.LastIndex(got, ": ")+2:]
		next := waText(t, c, "search_notes", map[string]any{"query": "mcp", "limit": 2, "cursor": cursor})
		wantLines(t, "page 2", next, "Found 3 notes (showing 3-3):", "\nNo more results.")
		if got := waText(t, c, "search_notes", map[string]any{"query": "quantum computing"}); got != `No notes found matching "quantum computing"` {
			t.Errorf("no results: %q", got)
		}
		tagged := waText(t, c, "search_notes", map[string]any{"query": "mcp tag:meeting"})
		wantLines(t, "mcp tag:meeting", tagged, "Found 1 note (showing 1-1):\n\n- **Meeting Notes Jan 15** (meetings/2024-01-15)\n  Tags: meeting\n  ...")
		if res := c.call(t, "search_notes", map[string]any{"query": "mcp", "limit": 2.5}); !res.IsError {
			t.Errorf("limit 2.5: %q", res.text())
		}
	})

	t.Run("browse", func(t *testing.T) {
		got := waText(t, c, "browse", map[string]any{"path": "projects/wiki-ai"})
		wantLines(t, "browse", got, "Browsing: projects/wiki-ai/\n\nNote at this path:\n- **Wiki-AI Overview** (projects/wiki-ai) - Updated ",
			"\n\nFolders:\n- projects/wiki-ai/research/    (1 note)\n\nNotes at this level:\n- **Technical Spec** (projects/wiki-ai/spec) - Updated ")
		if got := waText(t, c, "browse", map[string]any{"path": "nowhere"}); !strings.HasSuffix(got, "No folders or notes at this path.") {
			t.Errorf("empty: %q", got)
		}
		root := waText(t, c, "browse", map[string]any{})
		wantLines(t, "root", root, "Browsing: /\n\nFolders:\n- archive/", "- meetings/", "- projects/")
	})

	t.Run("list_tags and get_backlinks", func(t *testing.T) {
		wantLines(t, "list_tags", waText(t, c, "list_tags", nil), "Tags in use:\n\n", "- meeting (1 note)", "- only (1 note)")
		got := waText(t, c, "get_backlinks", map[string]any{"path": "archive/old-ideas"})
		wantLines(t, "get_backlinks", got, "Backlinks to archive/old-ideas:\n\n- **Wiki-AI Overview** (projects/wiki-ai)\n  1 link - line ",
			"- **Technical Spec** (projects/wiki-ai/spec)\n  2 links - lines 6, 6")
		gittest.Commit(t, dir, "a link to nothing", map[string]string{"meetings/next.md": "# Next\n\nSee [[plans/missing]] twice: [[plans/missing]].\n"})
		missing := waText(t, c, "get_backlinks", map[string]any{"path": "plans/missing"})
		if missing != "Note plans/missing does not exist.\n\nHowever, 1 note have links to this path:\n- meetings/next (2 links)" &&
			!strings.HasPrefix(missing, "Note plans/missing does not exist.\n\nHowever, ") {
			t.Errorf("backlinks of a missing note: %q", missing)
		}
		if got := waText(t, c, "get_backlinks", map[string]any{"path": "meetings/2024-01-15"}); got != "No notes link to meetings/2024-01-15" {
			t.Errorf("no backlinks: %q", got)
		}
	})

	t.Run("recent_notes", func(t *testing.T) {
		got := waText(t, c, "recent_notes", map[string]any{"limit": 2})
		wantLines(t, "recent_notes", got, "Recent notes:\n\n- **", ")\n  Updated: ", "\n\n- **")
		if strings.Count(got, "\n- **") != 2 {
			t.Errorf("limit 2:\n%s", got)
		}
		if got := waText(t, c, "recent_notes", map[string]any{"since": "2999-01-01T00:00:00Z"}); got != "No notes updated since 2999-01-01T00:00:00Z" {
			t.Errorf("since the future: %q", got)
		}
	})

	t.Run("history, versions, diffs and restore", func(t *testing.T) {
		got := waText(t, c, "get_note_history", map[string]any{"path": "archive/old-ideas"})
		log := strings.Fields(gittest.Git(t, dir, "log", "--follow", "--format=%h", "--abbrev=7", "--", "archive/old-ideas.md"))
		wantLines(t, "get_note_history", got, "Version history for archive/old-ideas:\n\n- "+log[0]+" (", ") by test-client\n  ")
		if strings.Count(got, "\n- ") != len(log) {
			t.Errorf("get_note_history lists %d versions, git log --follow %d:\n%s", strings.Count(got, "\n- "), len(log), got)
		}
		first := log[len(log)-1]
		old := waText(t, c, "get_note_version", map[string]any{"path": "projects/wiki-ai/ideas", "version": first})
		wantLines(t, "get_note_version", old, "# My Ideas (version "+first+")\n\n**Path:** projects/wiki-ai/ideas\n**Tags:** brainstorm, product\n**Version:** "+first,
			"---\n\nHere are my initial ideas")
		diff := waText(t, c, "diff_note_versions", map[string]any{"path": "archive/old-ideas", "from_version": log[1], "to_version": log[0]})
		if !strings.HasPrefix(diff, "Diff for archive/old-ideas ("+log[1]+" → "+log[0]+"):\n\n+") {
			t.Errorf("diff_note_versions:\n%s", diff)
		}
		before := headOf(t, dir)
		if got := waText(t, c, "restore_note_version", map[string]any{"path": "archive/old-ideas", "version": first}); got != "Restored note 'archive/old-ideas' to version "+first {
			t.Errorf("restore_note_version: %q", got)
		}
		oneCommit(t, dir, before, "restore_note_version")
		if body := gittest.Git(t, dir, "show", "HEAD:archive/old-ideas.md"); !strings.Contains(body, "initial ideas") {
			t.Errorf("not restored:\n%s", body)
		}
	})

	t.Run("delete_note", func(t *testing.T) {
		before := headOf(t, dir)
		got := waText(t, c, "delete_note", map[string]any{"path": "archive/old-ideas"})
		wantLines(t, "delete_note", got, "Deleted note at archive/old-ideas\n\nWarning: 2 notes have links that are now broken:\n",
			"- projects/wiki-ai/spec (2 links)", "\nThese links were not modified. Update or remove them manually if desired.")
		oneCommit(t, dir, before, "delete_note")
	})
}
