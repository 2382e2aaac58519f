package tools_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestServer_NoteDates(t *testing.T) {
	dir := toolstest.DatedFixture(t)
	w := toolstest.OpenWiki(t, dir, nil)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))
	toolstest.OK[map[string]any](s, "note_history", map[string]any{"path": "people/carol-nguyen"}) // the history index is at HEAD
	carolCommit, carolCreated, carolModified := toolstest.LastChange(t, dir, "people/carol-nguyen.md")
	bobCommit, bobCreated, bobModified := toolstest.LastChange(t, dir, "people/bob.md")
	_, overviewCreated, overviewModified := toolstest.LastChange(t, dir, "projects/alpha/overview.md")
	fmCreated := time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC)
	fmModified := time.Date(2024, 3, 11, 17, 4, 0, 0, time.FixedZone("", 3600))

	t.Run("read_note", func(t *testing.T) {
		r, txt := toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": "people/carol-nguyen"})
		if r.Commit != carolCommit || r.Commit == toolstest.Git(t, dir, "rev-parse", "HEAD") {
			t.Errorf("commit %s, want the note's last change %s, not HEAD", r.Commit, carolCommit)
		}
		if !toolstest.SameTime(r.Created, carolCreated) || !toolstest.SameTime(r.Modified, carolModified) || r.CreatedSource != "git" || r.ModifiedSource != "git" {
			t.Errorf("dates %+v, want %s and %s from git", r.Dates, carolCreated, carolModified)
		}
		if !strings.Contains(txt, "last changed in commit "+carolCommit[:7]) || !strings.Contains(txt, "(git)") {
			t.Errorf("text:\n%s", txt)
		}
		r, txt = toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": "projects/alpha/overview", "metadata_only": true})
		if !toolstest.SameTime(r.Created, fmCreated) || !toolstest.SameTime(r.Modified, fmModified) || r.CreatedSource != "frontmatter" ||
			r.ModifiedSource != "frontmatter" || !toolstest.SameTime(r.GitCreated, overviewCreated) || !toolstest.SameTime(r.GitModified, overviewModified) {
			t.Errorf("overview: %+v, git %v %v", r.Dates, r.GitCreated, r.GitModified)
		}
		if !strings.Contains(txt, "created: 2024-01-08 (frontmatter); git: ") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("list_notes", func(t *testing.T) {
		res, txt := toolstest.OK[wiki.ListResult](s, "list_notes", map[string]any{"path": "people"})
		if len(res.Notes) < 2 {
			t.Fatalf("notes %+v", res.Notes)
		}
		for _, n := range res.Notes {
			if n.Created == nil || n.Modified == nil || n.CreatedSource == "" || n.ModifiedSource == "" {
				t.Errorf("%s has no dates: %+v", n.Path, n.Dates)
			}
			if n.Path == "people/bob" && (!toolstest.SameTime(n.Modified, bobModified) || !toolstest.SameTime(n.Created, bobCreated)) {
				t.Errorf("bob: %+v, want created %s modified %s", n.Dates, bobCreated, bobModified)
			}
		}
		if !strings.Contains(txt, "modified "+bobModified.UTC().Format(time.RFC3339)) && !strings.Contains(txt, "(git)") {
			t.Errorf("text:\n%s", txt)
		}
	})

	t.Run("search_notes", func(t *testing.T) {
		// A hit has its modified date; its created date only when the
		// hits are sorted by it. read_note says where each comes from.
		for _, sort := range []string{"relevance", "created"} {
			res, _ := toolstest.OK[wiki.SearchResult](s, "search_notes", map[string]any{"query": "path:people/*", "limit": 100, "sort": sort})
			if len(res.Results) < 2 {
				t.Fatalf("hits %+v", res.Results)
			}
			for _, h := range res.Results {
				if h.Modified.IsZero() || (h.Created == nil) != (sort != "created") || h.CreatedSource != "" || h.ModifiedSource != "" {
					t.Errorf("sort %s: %s: %+v", sort, h.Path, h)
				}
				if h.Path == "people/carol-nguyen" && (!h.Modified.Equal(carolModified) || sort == "created" && !toolstest.SameTime(h.Created, carolCreated)) {
					t.Errorf("sort %s: carol: %+v, want created %s modified %s", sort, h, carolCreated, carolModified)
				}
			}
		}
	})

	t.Run("recent_changes", func(t *testing.T) {
		res, _ := toolstest.OK[struct {
			Results []wiki.RecentNote `json:"results"`
		}](s, "recent_changes", map[string]any{"limit": 100})
		found := 0
		for _, n := range res.Results {
			switch n.Path {
			case "people/bob":
				found++
				if n.Commit != bobCommit || !n.Modified.Equal(bobModified) || n.ModifiedSource != "git" || !toolstest.SameTime(n.Created, bobCreated) || n.CreatedSource != "git" {
					t.Errorf("bob: %+v", n)
				}
			case "projects/alpha/overview":
				found++
				if !toolstest.SameTime(n.Created, fmCreated) || n.CreatedSource != "frontmatter" || !n.Modified.Equal(overviewModified) {
					t.Errorf("overview: %+v", n)
				}
			}
		}
		if found != 2 {
			t.Errorf("found %d of bob and overview in %d results", found, len(res.Results))
		}
	})
}

func TestServer_UncommittedNotes(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	w := toolstest.OpenWiki(t, dir, nil)
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{}), nil, ""))
	committed := gittest.Git(t, dir, "show", "HEAD:people/carol-nguyen.md")
	gittest.WriteFiles(t, dir, map[string]string{
		"people/carol-nguyen.md": committed + "\nAn edit not committed.\n",
		"inbox/new-idea.md":      "# New idea\n",
	})

	t.Run("read_note says the checkout differs", func(t *testing.T) {
		r, txt := toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": "people/carol-nguyen"})
		if r.Content != committed || r.LocalChange != "modified" || !strings.Contains(txt, "local change: ") {
			t.Errorf("local change %q, text:\n%s", r.LocalChange, txt)
		}
	})

	t.Run("read_note of an uncommitted note", func(t *testing.T) {
		e := s.Fail("read_note", map[string]any{"path": "inbox/new-idea"}, "NOT_FOUND")
		if msg, _ := e["message"].(string); !strings.Contains(msg, "inbox/new-idea.md exists on disk but is not committed") {
			t.Errorf("message %q", msg)
		}
		if hint, _ := e["hint"].(string); !strings.Contains(hint, "git add inbox/new-idea.md") || !strings.Contains(hint, "write_note") {
			t.Errorf("hint %q", hint)
		}
	})

	t.Run("wiki_status", func(t *testing.T) {
		st, txt := toolstest.OK[wiki.Status](s, "wiki_status", nil)
		lc := st.LocalChanges
		if lc == nil || lc.Modified != 1 || lc.Untracked != 1 || lc.ModifiedPaths[0] != "people/carol-nguyen.md" || lc.UntrackedPaths[0] != "inbox/new-idea.md" {
			t.Errorf("local changes %+v", lc)
		}
		if !strings.Contains(txt, "1 note modified: people/carol-nguyen.md") || !strings.Contains(txt, "1 note untracked: inbox/new-idea.md") {
			t.Errorf("text:\n%s", txt)
		}
	})
}
