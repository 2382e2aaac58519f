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
			if n := len(s.trees.m); n != 0 {
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
