package gitstore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/wikid/wikid/internal/gittest"
)

func TestStore_Changes(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	c1 := gittest.Commit(t, dir, "one", map[string]string{
		"a.md": "a\n", "keep/k.md": "k\n", "dir/x.md": "x\n", "dir/sub/y.md": "y\n", "old.md": "moving\n", "f": "file\n",
	})
	gittest.Git(t, dir, "rm", "-q", "-r", "dir", "old.md", "f")
	c2 := gittest.Commit(t, dir, "two", map[string]string{
		"a.md": "A\n", "new/n.md": "n\n", "moved.md": "moving\n", "f/inside.md": "i\n",
	})
	tests := []struct {
		name     string
		from, to string
		want     string // path:old:new, with blobs as file names
	}{
		{"one to two", c1, c2, "a.md:a:A dir/sub/y.md:y: dir/x.md:x: f:file: f/inside.md::i moved.md::moving new/n.md::n old.md:moving:"},
		{"two to one", c2, c1, "a.md:A:a dir/sub/y.md::y dir/x.md::x f::file f/inside.md:i: moved.md:moving: new/n.md:n: old.md::moving"},
		{"from the empty tree", "", c1, "a.md::a dir/sub/y.md::y dir/x.md::x f::file keep/k.md::k old.md::moving"},
		{"to the empty tree", c1, "", "a.md:a: dir/sub/y.md:y: dir/x.md:x: f:file: keep/k.md:k: old.md:moving:"},
		{"same commit", c2, c2, ""},
		{"both empty", "", "", ""},
	}
	s := openStore(t, dir)
	blobs := map[string]string{"": ""} // blob id → its content, trimmed
	for _, spec := range []string{c1 + ":a.md", c1 + ":keep/k.md", c1 + ":dir/x.md", c1 + ":dir/sub/y.md",
		c1 + ":old.md", c1 + ":f", c2 + ":a.md", c2 + ":new/n.md", c2 + ":f/inside.md"} {
		blobs[rev(t, dir, spec)] = strings.TrimSpace(gittest.Git(t, dir, "show", spec))
	}
	for i, tc := range tests {
		if i == 2 {
			// The caches emptied halfway: the trees are read again.
			s.ReleaseCaches()
			if n := s.trees.Len(); n != 0 {
				t.Fatalf("%d trees cached after ReleaseCaches", n)
			}
		}
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Changes(ctx, tc.from, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, c := range got {
				if c.Delete != (c.NewBlob == "") || c.Content != nil {
					t.Errorf("%+v: Delete or Content wrong", c)
				}
				parts = append(parts, fmt.Sprintf("%s:%s:%s", c.Path, blobs[c.OldBlob], blobs[c.NewBlob]))
			}
			if g := strings.Join(parts, " "); g != tc.want {
				t.Errorf("Changes =\n%s\nwant\n%s", g, tc.want)
			}
		})
	}
	if _, err := s.Changes(ctx, c1, strings.Repeat("2", 40)); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("unknown commit: %v", err)
	}
}

func TestStore_IsAncestor(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	c1 := gittest.Commit(t, dir, "one", map[string]string{"a.md": "1\n"})
	c2 := gittest.Commit(t, dir, "two", map[string]string{"a.md": "2\n"})
	gittest.Git(t, dir, "checkout", "-q", "-b", "side", c1)
	side := gittest.Commit(t, dir, "side", map[string]string{"b.md": "b\n"})
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	merge := rev(t, dir, "HEAD")
	s := openStore(t, dir)
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{c1, c1, true}, {c1, c2, true}, {c2, c1, false}, {c1, merge, true}, {side, merge, true},
		{c2, side, false}, {side, c2, false}, {merge, side, false}, {"", c1, true}, {c1, "", false},
	} {
		got, err := s.IsAncestor(ctx, tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("IsAncestor(%.7s, %.7s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
	}
	if _, err := s.IsAncestor(ctx, strings.Repeat("3", 40), c2); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("unknown commit: %v", err)
	}
}

// TestStore_ChangesAsGit diffs every commit of a generated history, packed
// with deep delta chains, against its parent as git diff-tree does, with a
// mode change and a file that becomes a folder on top.
func TestStore_ChangesAsGit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Generate(t, dir, 300, 80)
	gittest.Git(t, dir, "update-index", "--chmod=+x", strings.Fields(gittest.Git(t, dir, "ls-files", "projects"))[0])
	gittest.Git(t, dir, "commit", "-qm", "chmod")
	first := strings.Fields(gittest.Git(t, dir, "ls-files", "people"))[0]
	gittest.Git(t, dir, "rm", "-q", first)
	gittest.Commit(t, dir, "file to folder", map[string]string{first + "/inside.md": "inside\n"})
	gittest.Git(t, dir, "repack", "-adfq", "--depth=50", "--window=50")
	s := openStore(t, dir)
	commits := strings.Fields(gittest.Git(t, dir, "rev-list", "--first-parent", "HEAD"))
	for _, c := range commits {
		parent := ""
		var want []string
		if p, err := gittest.TryGit(dir, "rev-parse", "-q", "--verify", c+"^"); err == nil {
			parent = strings.TrimSpace(p)
			for line := range strings.SplitSeq(strings.TrimSpace(gittest.Git(t, dir, "diff-tree", "-r", "--no-renames", "--raw", "--no-abbrev", parent, c)), "\n") {
				if line == "" {
					continue
				}
				f := strings.Fields(line) // :old new oldID newID status path
				old, nw := f[2], f[3]
				if !strings.HasPrefix(f[0], ":100") && f[0] != ":000000" || !strings.HasPrefix(f[1], "100") && f[1] != "000000" {
					continue // not a regular file
				}
				if old == nw {
					continue // a mode change only
				}
				zero := func(id string) string { return strings.TrimPrefix(id, strings.Repeat("0", 40)) }
				want = append(want, fmt.Sprintf("%s:%s:%s", f[5], zero(old), zero(nw)))
			}
		}
		if parent == "" {
			continue
		}
		got, err := s.Changes(ctx, parent, c)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, ch := range got {
			parts = append(parts, fmt.Sprintf("%s:%s:%s", ch.Path, ch.OldBlob, ch.NewBlob))
		}
		if g, w := strings.Join(parts, " "), strings.Join(want, " "); g != w {
			t.Fatalf("Changes(%s^, %s) =\n%s\ngit diff-tree:\n%s", c[:7], c[:7], g, w)
		}
	}
	t.Logf("%d commits", len(commits))
}
