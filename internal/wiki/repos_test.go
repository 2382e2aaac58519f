package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_RepositoryKinds writes through wikid into every kind of
// repository it supports and checks each with the git CLI.
func TestWiki_RepositoryKinds(t *testing.T) {
	ctx := context.Background()
	kinds := []struct {
		name string
		make func(t *testing.T) (open, check string)
	}{
		{"checkout", func(t *testing.T) (string, string) {
			d := seeded(t, map[string]string{"README.md": "# Wiki\n"})
			return d, d
		}},
		{"subdirectory of a checkout", func(t *testing.T) (string, string) {
			d := seeded(t, map[string]string{"notes/README.md": "# Wiki\n"})
			return d + "/notes", d
		}},
		{"unborn branch", func(t *testing.T) (string, string) {
			d := gittest.Init(t)
			return d, d
		}},
		{"packed refs after gc", func(t *testing.T) (string, string) {
			d := seeded(t, map[string]string{"README.md": "# Wiki\n"})
			gittest.Git(t, d, "gc", "-q")
			gittest.Git(t, d, "pack-refs", "--all")
			return d, d
		}},
		{"bare", func(t *testing.T) (string, string) {
			src := seeded(t, map[string]string{"README.md": "# Wiki\n"})
			bare := t.TempDir()
			gittest.Git(t, bare, "clone", "-q", "--bare", src, ".")
			return bare, bare
		}},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			open, repo := k.make(t)
			w := openWiki(t, open, nil)
			bare := strings.TrimSpace(gittest.Git(t, repo, "rev-parse", "--is-bare-repository")) == "true"
			for i, content := range []string{"# One\n", "# One\n\ntwo\n"} {
				res, err := w.Write(ctx, wiki.WriteRequest{Path: "n", Content: content, Overwrite: i > 0, Mutation: wiki.Mutation{Caller: cli}})
				if err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
				if got := gittest.Git(t, repo, "show", res.Commit+":n.md"); got != content {
					t.Fatalf("committed %q, want %q", got, content)
				}
				gittest.Fsck(t, repo)
				if !bare {
					checkRepo(t, repo)
				}
			}
			if _, err := w.Edit(ctx, wiki.EditRequest{Path: "n", Edits: []note.Edit{{Op: note.OpAppend, Content: "three"}}}); err != nil {
				t.Fatal(err)
			}
			log := gittest.Git(t, repo, "log", "--format=%s", "-3")
			if !strings.HasPrefix(log, "edit: n\nwrite: n\ncreate: n\n") {
				t.Errorf("log:\n%s", log)
			}
			r, err := w.Read(ctx, wiki.ReadRequest{Path: "n", Version: "HEAD~1"})
			if err != nil || r.Content != "# One\n\ntwo\n" {
				t.Errorf("read HEAD~1 = %+v, %v", r, err)
			}
		})
	}
}

func TestWiki_DetachedHeadRefusesWrites(t *testing.T) {
	dir := seeded(t, map[string]string{"README.md": "# Wiki\n"})
	gittest.Git(t, dir, "checkout", "-q", "--detach")
	w := openWiki(t, dir, nil)
	before := captureState(t, dir)
	_, err := w.Write(context.Background(), wiki.WriteRequest{Path: "x", Content: "x"})
	if err == nil || !strings.Contains(err.Error(), "detached") {
		t.Fatalf("write on detached HEAD: %v", err)
	}
	before.assertEqual(t, captureState(t, dir))
	if _, err := w.Read(context.Background(), wiki.ReadRequest{Path: "README"}); err != nil {
		t.Fatalf("read on detached HEAD: %v", err)
	}
}
