package wiki_test

import (
	"context"
	"os/exec"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_CompleteNotes(t *testing.T) {
	ctx := context.Background()
	// hub is the oldest note but three notes link to it; fresh is the
	// newest and nothing links to it.
	dir := seeded(t, map[string]string{
		"projects/hub.md":   "# Project Hub\n",
		"projects/alpha.md": "# Alpha\n\n[[hub]]\n",
		"people/ada.md":     "# Ada\n\n[[hub]]\n",
		"people/bob.md":     "# Bob\n\n[[hub]]\n",
	})
	gittest.WriteFiles(t, dir, map[string]string{"projects/fresh.md": "---\ntitle: Zephyr plan\n---\nfresh\n"})
	gittest.Git(t, dir, "add", "-A")
	later := exec.Command("git", "commit", "-q", "-m", "fresh")
	later.Dir, later.Env = dir, append(gittest.Env(), "GIT_COMMITTER_DATE=2099-01-01T00:00:00Z", "GIT_AUTHOR_DATE=2099-01-01T00:00:00Z")
	if out, err := later.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	w := openWiki(t, dir, nil)

	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", []string{"projects/hub", "projects/fresh", "bob", "ada", "alpha"}},
		{"proj", []string{"projects/hub", "projects/fresh", "projects/alpha"}},
		{"PROJECTS/A", []string{"projects/alpha"}},
		{"zeph", []string{"projects/fresh"}}, // by title
		{"bo", []string{"people/bob"}},       // by file name
		{"nothing", []string{}},
	} {
		got, err := w.CompleteNotes(ctx, tc.prefix, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tc.prefix == "" {
			// The hub and the newest note lead; the rest follow.
			if len(got.Values) != 5 || got.Total != 5 || !slices.Equal(got.Values[:2], tc.want[:2]) {
				t.Errorf("complete %q = %+v, want %v first", tc.prefix, got, tc.want[:2])
			}
			continue
		}
		if !slices.Equal(got.Values, tc.want) || got.Total != len(tc.want) {
			t.Errorf("complete %q = %+v, want %v", tc.prefix, got, tc.want)
		}
	}
	got, _ := w.CompleteNotes(ctx, "", 2)
	if len(got.Values) != 2 || got.Total != 5 {
		t.Errorf("complete with a limit of 2 = %+v", got)
	}

	// The notes of a commit come first at once; deleted ones go.
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "travel/japan", Content: "# Japan\n"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: "people/bob", Confirm: true}); err != nil {
		t.Fatal(err)
	}
	got, _ = w.CompleteNotes(ctx, "", 0)
	if got.Total != 5 || got.Values[0] != "travel/japan" || slices.Contains(got.Values, "people/bob") {
		t.Errorf("after a write and a delete: %+v", got)
	}
	if f, _ := w.CompleteFolders(ctx, "tr", 0); !slices.Equal(f.Values, []string{"travel"}) {
		t.Errorf("folders after a write: %+v", f)
	}
}

func TestWiki_CompleteFoldersTagsRevisions(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"projects/web/site.md": "# Site\n\n#project/web\n",
		"people/ada.md":        "# Ada\n\n#person #project\n",
	})
	w := openWiki(t, dir, nil)
	folders, err := w.CompleteFolders(ctx, "p", 0)
	if err != nil {
		t.Fatal(err)
	}
	if folders.Total != 3 || !slices.Contains(folders.Values, "projects") || !slices.Contains(folders.Values, "people") {
		t.Errorf("folders %+v", folders)
	}
	if f, _ := w.CompleteFolders(ctx, "web", 0); !slices.Equal(f.Values, []string{"projects/web"}) {
		t.Errorf("folders by name %+v", f)
	}
	tags, err := w.CompleteTags(ctx, "#proj", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags.Values) != 2 || tags.Values[0] != "project" {
		t.Errorf("tags %+v, want project (2 notes) before project/web", tags)
	}
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	revs, err := w.CompleteRevisions(ctx, head[:3], 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(revs.Values, []string{head[:7]}) {
		t.Errorf("revisions %+v, want %s", revs, head[:7])
	}
	dates, err := w.CompleteDates(ctx, "2024-", 0)
	if err != nil {
		t.Fatal(err)
	}
	// The fixed clock's today and yesterday.
	if len(dates.Values) < 2 || dates.Values[0] != "2024-06-01" || dates.Values[1] != "2024-05-31" {
		t.Errorf("dates %+v", dates)
	}
}
