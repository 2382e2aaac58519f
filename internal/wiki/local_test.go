package wiki_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_LocalChanges(t *testing.T) {
	ctx := context.Background()
	seed := map[string]string{
		"a.md":         "# A\n\ncommitted\n",
		"b.md":         "# B\n",
		"gone.md":      "# Gone\n",
		"notes/c.md":   "# C\n",
		".gitignore":   "drafts/\n*.tmp.md\n",
		"keep/d.md":    "# D\n",
		"attach/x.txt": "not a note\n",
	}
	dir := seeded(t, seed)
	w := openWiki(t, dir, nil)

	t.Run("clean checkout", func(t *testing.T) {
		// Another checkout: a status is reused for a moment.
		st, err := openWiki(t, seeded(t, seed), nil).Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if lc := st.LocalChanges; lc == nil || lc.Modified != 0 || lc.Untracked != 0 {
			t.Errorf("local changes %+v, want none", lc)
		}
	})

	// Uncommitted work, as `git status` sees it.
	gittest.WriteFiles(t, dir, map[string]string{
		"a.md":            "# A\n\nedited, not committed\n",
		"new.md":          "# New\n",
		"notes/fresh.md":  "# Fresh\n",
		"drafts/draft.md": "# Ignored\n",
		"x.tmp.md":        "# Ignored too\n",
		"attach/y.txt":    "not a note\n",
	})
	if err := os.Remove(filepath.Join(dir, "gone.md")); err != nil {
		t.Fatal(err)
	}

	t.Run("read says the checkout differs", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "a"})
		if err != nil {
			t.Fatal(err)
		}
		if r.Content != "# A\n\ncommitted\n" || r.LocalChange != "modified" {
			t.Errorf("content %q, local change %q; want the committed content, modified", r.Content, r.LocalChange)
		}
		if r, err := w.Read(ctx, wiki.ReadRequest{Path: "b"}); err != nil || r.LocalChange != "" {
			t.Errorf("clean note: local change %q, %v", r.LocalChange, err)
		}
		if r, err := w.Read(ctx, wiki.ReadRequest{Path: "gone"}); err != nil || r.LocalChange != "deleted" {
			t.Errorf("deleted file: %+v, %v", r, err)
		}
		if r, err := w.Read(ctx, wiki.ReadRequest{Path: "a", Version: "HEAD"}); err != nil || r.LocalChange != "" {
			t.Errorf("read at a version: local change %q, %v", r.LocalChange, err)
		}
	})

	t.Run("an uncommitted note is not found, and the error says why", func(t *testing.T) {
		for _, path := range []string{"new", "notes/fresh.md"} {
			_, err := w.Read(ctx, wiki.ReadRequest{Path: path})
			var ne *wiki.Error
			if !errors.As(err, &ne) || ne.Code != wiki.CodeNotFound {
				t.Fatalf("read %s: %v, want NOT_FOUND", path, err)
			}
			if !strings.Contains(ne.Message, "exists on disk but is not committed") || !strings.Contains(ne.Hint, "git add") ||
				!strings.Contains(wiki.Words{}.Say(ne.Hint), "create the note with write") {
				t.Errorf("read %s: %q, hint %q", path, ne.Message, ne.Hint)
			}
		}
		_, err := w.Read(ctx, wiki.ReadRequest{Path: "nowhere"})
		var ne *wiki.Error
		if !errors.As(err, &ne) || strings.Contains(ne.Message, "on disk") {
			t.Errorf("missing everywhere: %v", err)
		}
	})

	t.Run("status counts and names them", func(t *testing.T) {
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		lc := st.LocalChanges
		if lc == nil {
			t.Fatal("no local changes")
		}
		// git's view, markdown only: modified or deleted, and untracked.
		var modified, untracked []string
		for _, line := range strings.Split(strings.TrimRight(gittest.Git(t, dir, "status", "--porcelain", "-uall"), "\n"), "\n") {
			code, file := line[:2], line[3:]
			if !strings.HasSuffix(file, ".md") {
				continue
			}
			if code == "??" {
				untracked = append(untracked, file)
			} else {
				modified = append(modified, file)
			}
		}
		if lc.Modified != len(modified) || !slices.Equal(lc.ModifiedPaths, modified) ||
			lc.Untracked != len(untracked) || !slices.Equal(lc.UntrackedPaths, untracked) || lc.Partial {
			t.Errorf("local changes %+v; git status: modified %v, untracked %v", lc, modified, untracked)
		}
	})

	t.Run("first paths only", func(t *testing.T) {
		time.Sleep(100 * time.Millisecond) // past the reuse of the last scan
		files := map[string]string{}
		for _, c := range "abcdefgh" {
			files["many/"+string(c)+".md"] = "# x\n"
		}
		gittest.WriteFiles(t, dir, files)
		st, err := w.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if lc := st.LocalChanges; lc.Untracked != 10 || len(lc.UntrackedPaths) != 5 || lc.UntrackedPaths[0] != "many/a.md" {
			t.Errorf("local changes %+v, want 10 untracked, 5 named", lc)
		}
	})

	t.Run("bare repository", func(t *testing.T) {
		bare := gittest.InitBare(t)
		gittest.Git(t, dir, "push", "-q", bare, "HEAD:refs/heads/main")
		bw := openWiki(t, bare, nil)
		st, err := bw.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.LocalChanges != nil {
			t.Errorf("bare: %+v", st.LocalChanges)
		}
	})
}
