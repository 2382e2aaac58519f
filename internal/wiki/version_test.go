package wiki_test

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_ReadVersion reads notes at old versions named every way the
// history tools hand them out, and checks each against git show.
func TestWiki_ReadVersion(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	hist, err := s.w.History(ctx, wiki.HistoryRequest{Path: "a"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range hist.Revisions {
		for _, v := range []string{r.Commit, r.Short, strings.ToUpper(r.Short)} {
			res, err := s.w.Read(ctx, wiki.ReadRequest{Path: "a", Version: v})
			if err != nil {
				t.Fatalf("read a at %s: %v", v, err)
			}
			if want := gittest.Git(t, s.dir, "show", r.Commit+":a.md"); res.Content != want || res.Commit != r.Commit || res.Version != r.Version {
				t.Errorf("read a at %s = %q (%s, %s), want %q (%s, %s)", v, res.Content, res.Commit, res.Version, want, r.Commit, r.Version)
			}
		}
	}
	for i := range 4 {
		v := fmt.Sprintf("HEAD~%d", i)
		res, err := s.w.Read(ctx, wiki.ReadRequest{Path: "a", Version: v})
		if err != nil {
			t.Fatalf("read a at %s: %v", v, err)
		}
		if want := gittest.Git(t, s.dir, "show", v+":a.md"); res.Content != want {
			t.Errorf("read a at %s = %q, want %q", v, res.Content, want)
		}
	}
	t.Run("errors", func(t *testing.T) {
		_, err := s.w.Read(ctx, wiki.ReadRequest{Path: "a", Version: "0000000"})
		wantCode(t, err, wiki.CodeNotFound)
		_, err = s.w.Read(ctx, wiki.ReadRequest{Path: "e", Version: gitLines(t, s.dir, "rev-list", "--max-parents=0", "HEAD")[0]})
		wantCode(t, err, wiki.CodeNotFound)
		prefix := ambiguousCommits(t, s.dir)
		_, err = s.w.Read(ctx, wiki.ReadRequest{Path: "a", Version: prefix})
		wantCode(t, err, wiki.CodeAmbiguous)
	})
}

// ambiguousCommits writes two commits (not on any branch) whose ids share
// their first four hex digits, and returns those digits.
func ambiguousCommits(t *testing.T, dir string) string {
	t.Helper()
	tree := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD^{tree}"))
	seen := map[string]string{}
	for i := 0; ; i++ {
		body := fmt.Sprintf("tree %s\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nprobe %d\n", tree, i)
		h := sha1.Sum([]byte(fmt.Sprintf("commit %d\x00%s", len(body), body)))
		id := hex.EncodeToString(h[:])
		if other, ok := seen[id[:4]]; ok {
			for _, b := range []string{other, body} {
				f := filepath.Join(t.TempDir(), "commit")
				if err := os.WriteFile(f, []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
				gittest.Git(t, dir, "hash-object", "-t", "commit", "-w", f)
			}
			return id[:4]
		}
		seen[id[:4]] = body
	}
}
