package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Read(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"projects/plan.md":    planNote,
		"Areas/Café.md":       "# Café\n\nüñí\n",
		"old/format.markdown": "# Old\n",
		"mdx/comp.mdx":        "# Comp\n",
	})
	first := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	gittest.Commit(t, dir, "second", map[string]string{"projects/plan.md": planNote + "\nlater\n"})
	w := syncedHistoryWiki(t, dir)

	tests := []struct {
		name string
		req  wiki.ReadRequest
		want func(t *testing.T, r *wiki.ReadResult)
		code wiki.Code
	}{
		{"whole note", wiki.ReadRequest{Path: "projects/plan"}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != planNote+"\nlater\n" || r.Title != "Plan" || r.File != "projects/plan.md" {
				t.Errorf("got %+v", r)
			}
			if blob := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:projects/plan.md")); r.Version != blob {
				t.Errorf("version %s, want blob %s", r.Version, blob)
			}
		}, ""},
		{"with extension", wiki.ReadRequest{Path: "projects/plan.md"}, nil, ""},
		{"section", wiki.ReadRequest{Path: "projects/plan", Section: "Tasks"}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != "## Tasks\n\n- write\n\n" {
				t.Errorf("section = %q", r.Content)
			}
		}, ""},
		{"section path", wiki.ReadRequest{Path: "projects/plan", Section: "Plan/Notes"}, func(t *testing.T, r *wiki.ReadResult) {
			if !strings.HasPrefix(r.Content, "## Notes\n") {
				t.Errorf("section = %q", r.Content)
			}
		}, ""},
		{"missing section", wiki.ReadRequest{Path: "projects/plan", Section: "Nope"}, nil, wiki.CodeNotFound},
		{"metadata only", wiki.ReadRequest{Path: "projects/plan", MetadataOnly: true}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != "" || len(r.Tags) != 1 || r.Tags[0] != "project" || len(r.Headings) != 3 {
				t.Errorf("got %+v", r)
			}
		}, ""},
		{"old version", wiki.ReadRequest{Path: "projects/plan", Version: first[:8]}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != planNote || r.Commit != first { // the note's last change as of first
				t.Errorf("got %q at %s", r.Content, r.Commit)
			}
		}, ""},
		{"HEAD~1", wiki.ReadRequest{Path: "projects/plan", Version: "HEAD~1"}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != planNote {
				t.Errorf("got %q", r.Content)
			}
		}, ""},
		{"unknown version", wiki.ReadRequest{Path: "projects/plan", Version: "deadbeefdead"}, nil, wiki.CodeNotFound},
		{"window", wiki.ReadRequest{Path: "Areas/Café", Offset: 2, MaxChars: 5}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Content != "Café\n" || !r.Truncated || r.NextOffset != 7 || r.TotalChars != 12 {
				t.Errorf("got %+v", r)
			}
		}, ""},
		{"case-insensitive fallback", wiki.ReadRequest{Path: "areas/café"}, func(t *testing.T, r *wiki.ReadResult) {
			if r.Path != "Areas/Café" {
				t.Errorf("path %q", r.Path)
			}
		}, ""},
		{".markdown file", wiki.ReadRequest{Path: "old/format"}, func(t *testing.T, r *wiki.ReadResult) {
			if r.File != "old/format.markdown" {
				t.Errorf("file %q", r.File)
			}
		}, ""},
		{".mdx file", wiki.ReadRequest{Path: "mdx/comp.mdx"}, nil, ""},
		{"missing", wiki.ReadRequest{Path: "nope"}, nil, wiki.CodeNotFound},
		{"bad path", wiki.ReadRequest{Path: ".git/config"}, nil, wiki.CodeInvalidPath},
		{"negative offset", wiki.ReadRequest{Path: "projects/plan", Offset: -1}, nil, wiki.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := w.Read(ctx, tt.req)
			if tt.code != "" {
				wantCode(t, err, tt.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != nil {
				tt.want(t, r)
			}
		})
	}
}

// TestWiki_HeadMovedUnderneath commits with the git CLI between two wikid
// writes: wikid must build on the new HEAD, never revert the other commit.
func TestWiki_HeadMovedUnderneath(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n", "b.md": "b\n"})
	w := openWiki(t, dir, nil)
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpAppend, Content: "wikid 1"}}}); err != nil {
		t.Fatal(err)
	}
	gittest.Commit(t, dir, "by hand", map[string]string{"b.md": "b by hand\n"})
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpAppend, Content: "wikid 2"}}}); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:b.md"); got != "b by hand\n" {
		t.Errorf("b.md = %q: the person's commit was reverted", got)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:a.md"); got != "a\nwikid 1\nwikid 2\n" {
		t.Errorf("a.md = %q", got)
	}
	checkRepo(t, dir)
}
