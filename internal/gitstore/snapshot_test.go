package gitstore

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestSnapshot_StatRead(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"a.md": "alpha\n", "a-b.md": "ab\n", "a/b.md": "in a\n", "a/c/d.md": "deep\n", "z.md": "",
	})
	gittest.Git(t, dir, "update-index", "--chmod=+x", "a-b.md")
	if err := symlink("a.md", dir, "link.md"); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "exec and link")
	s := openStore(t, dir)
	snap, err := s.Snapshot(ctx, rev(t, dir, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	if snap.Commit() != rev(t, dir, "HEAD") {
		t.Errorf("Commit() = %s", snap.Commit())
	}
	for _, tc := range []struct {
		path, content string
		code          wiki.Code
	}{
		{path: "a.md", content: "alpha\n"},
		{path: "a-b.md", content: "ab\n"},
		{path: "a/b.md", content: "in a\n"},
		{path: "a/c/d.md", content: "deep\n"},
		{path: "z.md", content: ""},
		{path: "a", code: wiki.CodeNotFound},
		{path: "a/c", code: wiki.CodeNotFound},
		{path: "link.md", code: wiki.CodeNotFound},
		{path: "missing.md", code: wiki.CodeNotFound},
		{path: "a.md/x.md", code: wiki.CodeNotFound},
		{path: "a/../a.md", code: wiki.CodeInvalidPath},
		{path: "/a.md", code: wiki.CodeInvalidPath},
		{path: ".git/config", code: wiki.CodeInvalidPath},
	} {
		t.Run(tc.path, func(t *testing.T) {
			f, err := snap.Stat(ctx, tc.path)
			if tc.code != "" {
				wantCode(t, err, tc.code)
				_, _, err = snap.Read(ctx, tc.path)
				wantCode(t, err, tc.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			blob := rev(t, dir, "HEAD:"+tc.path)
			want := wiki.File{Path: tc.path, Blob: blob, Size: int64(len(tc.content))}
			if f != want {
				t.Errorf("Stat = %+v, want %+v", f, want)
			}
			f, b, err := snap.Read(ctx, tc.path)
			if err != nil || f != want || string(b) != tc.content {
				t.Errorf("Read = %+v %q %v", f, b, err)
			}
		})
	}
}

func TestSnapshot_Files(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"a.md": "1\n", "a-b.md": "22\n", "a/b.md": "333\n", "a/c/d.md": "4444\n", "b/e.md": "5\n"}
	dir := seeded(t, files)
	s := openStore(t, dir)
	snap, err := s.Snapshot(ctx, rev(t, dir, "HEAD"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want string
	}{
		{"", "a-b.md a.md a/b.md a/c/d.md b/e.md"},
		{"a", "a/b.md a/c/d.md"},
		{"a/", "a/b.md a/c/d.md"},
		{"a/c", "a/c/d.md"},
		{"missing", ""},
		{"a.md", ""},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			got, err := snap.Files(ctx, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, f := range got {
				paths = append(paths, f.Path)
				if f.Size != int64(len(files[f.Path])) || f.Blob != rev(t, dir, "HEAD:"+f.Path) {
					t.Errorf("%+v: want size %d", f, len(files[f.Path]))
				}
			}
			if strings.Join(paths, " ") != tc.want {
				t.Errorf("Files(%q) = %v, want %s", tc.dir, paths, tc.want)
			}
		})
	}
	if _, err := snap.Files(ctx, "../x"); wiki.CodeOf(err) != wiki.CodeInvalidPath {
		t.Errorf("Files(../x): %v", err)
	}
}

func TestStore_Snapshot(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	s := openStore(t, dir)
	empty, err := s.Snapshot(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if files, err := empty.Files(ctx, ""); err != nil || len(files) != 0 || empty.Commit() != "" {
		t.Errorf("empty snapshot: %v %v", files, err)
	}
	for _, bad := range []string{
		strings.Repeat("0", 40),                  // the null id
		strings.Repeat("1", 40),                  // no such object
		rev(t, dir, "HEAD:a.md"),                 // a blob
		rev(t, dir, "HEAD^{tree}"),               // a tree
		rev(t, dir, "HEAD")[:12], "HEAD", "main", // not full ids
	} {
		if _, err := s.Snapshot(ctx, bad); wiki.CodeOf(err) != wiki.CodeNotFound {
			t.Errorf("Snapshot(%s): %v, want NOT_FOUND", bad, err)
		}
	}
}

// TestSnapshot_Concurrent reads from many goroutines while commits land;
// run with -race.
func TestSnapshot_Concurrent(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%d/n%d.md", i%5, i)] = fmt.Sprintf("note %d\n", i)
	}
	dir := seeded(t, files)
	s := openStore(t, dir)
	head := rev(t, dir, "HEAD")
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			snap, err := s.Snapshot(ctx, head)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 40 {
				j := (i + g) % 40
				p := fmt.Sprintf("f%d/n%d.md", j%5, j)
				if _, b, err := snap.Read(ctx, p); err != nil || string(b) != files[p] {
					t.Errorf("Read(%s) = %q, %v", p, b, err)
				}
				if list, err := snap.Files(ctx, fmt.Sprintf("f%d", i%5)); err != nil || len(list) != 8 {
					t.Errorf("Files: %d, %v", len(list), err)
				}
			}
		}()
	}
	parent := head
	for i := range 5 {
		parent = mustCommit(t, s, request(parent, fmt.Sprintf("edit %d", i), map[string]string{"f0/n0.md": fmt.Sprintf("v%d\n", i)}))
	}
	wg.Wait()
}
