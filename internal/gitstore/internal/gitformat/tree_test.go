package gitformat

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestParseTree(t *testing.T) {
	blob := HashObject(plumbing.BlobObject, []byte("a\n"))
	entries := []TreeEntry{
		{Name: "a-b", Mode: ModeFile, ID: blob},
		{Name: "a", Mode: ModeTree, ID: EmptyTree},
		{Name: "run", Mode: ModeExec, ID: blob},
	}
	b := EncodeTree(entries)
	got, err := ParseTree(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, entries) {
		t.Errorf("ParseTree(EncodeTree(%v)) = %v", entries, got)
	}
	if !bytes.HasPrefix(b, []byte("100644 a-b\x00")) || !bytes.Contains(b, []byte("40000 a\x00")) {
		t.Errorf("EncodeTree: %q", b)
	}
	for _, bad := range []string{" a\x00", "x a\x00", "100644 a", "100644 a\x00short", "100644 \x00" + string(blob[:])} {
		if _, err := ParseTree([]byte(bad)); err == nil {
			t.Errorf("ParseTree(%q): no error", bad)
		}
	}
}

// FuzzParseTree: a tree that parses encodes to the same entries, and
// NextEntry walks what ParseTree parses.
func FuzzParseTree(f *testing.F) {
	f.Add(EncodeTree([]TreeEntry{{Name: "a", Mode: ModeFile}, {Name: "b", Mode: ModeTree}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := ParseTree(b)
		var walked []TreeEntry
		for rest := b; len(rest) > 0; {
			name, mode, id, n, err := NextEntry(rest)
			if err != nil {
				walked = nil
				break
			}
			e := TreeEntry{Name: string(name), Mode: mode}
			copy(e.ID[:], id)
			walked, rest = append(walked, e), rest[n:]
		}
		if (err == nil) != (walked != nil || len(b) == 0) || !slices.Equal(walked, entries) {
			t.Fatalf("ParseTree = %v, %v; NextEntry walks %v", entries, err, walked)
		}
		if err != nil {
			return
		}
		again, err := ParseTree(EncodeTree(entries))
		if err != nil || !slices.Equal(again, entries) {
			t.Errorf("entries %v encode and parse as %v, %v", entries, again, err)
		}
	})
}

// TestCompareEntries sorts entries as git does: a tree sorts as if its
// name ended in '/', so between "a.b" and "a0".
func TestCompareEntries(t *testing.T) {
	want := []TreeEntry{
		{Name: "a", Mode: ModeFile},
		{Name: "a-b", Mode: ModeFile},
		{Name: "a.b", Mode: ModeFile},
		{Name: "a", Mode: ModeTree},
		{Name: "a0", Mode: ModeFile},
		{Name: "b", Mode: ModeTree},
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, func(x, y TreeEntry) int { return CompareEntries(x.Name, x.Mode, y.Name, y.Mode) })
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
	for _, tc := range []struct {
		name string
		mode uint32
		at   int
		ok   bool
	}{
		{"a", ModeFile, 0, true},
		{"a", ModeTree, 3, true},
		{"a.b", ModeTree, 3, false},
		{"c", ModeFile, 6, false},
	} {
		if i, ok := Search(want, tc.name, tc.mode); i != tc.at || ok != tc.ok {
			t.Errorf("Search(%q, %o) = %d, %v; want %d, %v", tc.name, tc.mode, i, ok, tc.at, tc.ok)
		}
	}
	if e, ok := Find(want, "b"); !ok || e.Mode != ModeTree {
		t.Errorf("Find(b) = %v, %v", e, ok)
	}
	if e, ok := Find(want, "a"); !ok || e.Mode != ModeFile {
		t.Errorf("Find(a) = %v, %v", e, ok)
	}
	if _, ok := Find(want, "z"); ok {
		t.Error("Find(z) found it")
	}
}

// BenchmarkParseTree parses a folder of 4,000 notes, as a generated
// 100,000-note wiki has.
func BenchmarkParseTree(b *testing.B) {
	var entries []TreeEntry
	for i := range 4000 {
		entries = append(entries, TreeEntry{Name: fmt.Sprintf("note-%05d.md", i), Mode: ModeFile, ID: HashObject(plumbing.BlobObject, []byte{byte(i)})})
	}
	raw := EncodeTree(entries)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTree(raw); err != nil {
			b.Fatal(err)
		}
	}
}
