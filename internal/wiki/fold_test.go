package wiki_test

import (
	"context"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_CaseInsensitiveLookupFollowsCommits checks the case-insensitive
// fallback while the tree changes under it, through wikid and the git CLI.
func TestWiki_CaseInsensitiveLookupFollowsCommits(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"Areas/Café.md": "# Café\n"})
	w := openWiki(t, dir, nil)
	read := func(path string) (*wiki.ReadResult, error) {
		return w.Read(ctx, wiki.ReadRequest{Path: path})
	}
	if r, err := read("areas/CAFÉ"); err != nil || r.Path != "Areas/Café" {
		t.Fatalf("first lookup: %+v, %v", r, err)
	}
	gittest.Git(t, dir, "mv", "Areas/Café.md", "Areas/Tea.md")
	gittest.Git(t, dir, "commit", "-q", "-m", "rename by hand")
	if _, err := read("areas/café"); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("renamed away: %v, want NOT_FOUND", err)
	}
	if r, err := read("AREAS/tea"); err != nil || r.Path != "Areas/Tea" {
		t.Errorf("after a git mv: %+v, %v", r, err)
	}
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "areas/TEA", Content: "x\n"}); wiki.CodeOf(err) != wiki.CodeAlreadyExists {
		t.Errorf("creating a note that differs only in case: %v, want ALREADY_EXISTS", err)
	}
	gittest.Commit(t, dir, "a twin", map[string]string{"areas/tea.md": "twin\n"})
	if _, err := read("AREAS/TEA"); wiki.CodeOf(err) != wiki.CodeAmbiguous {
		t.Errorf("two notes differing in case: %v, want AMBIGUOUS", err)
	}
	gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~2")
	if r, err := read("areas/café"); err != nil || r.Path != "Areas/Café" {
		t.Errorf("after reset --hard: %+v, %v", r, err)
	}
}
