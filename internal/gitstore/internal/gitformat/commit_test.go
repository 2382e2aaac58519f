package gitformat

import (
	"slices"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

var (
	testTree   = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")
	testParent = plumbing.NewHash("ce013625030ba8dba906f756967f9e9ca394464a")
	testAuthor = Signature{Name: "Ada Lovelace", Email: "ada@example.com",
		When: time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 5*3600+30*60))}
	testCommitter = Signature{Name: "wikid", Email: "wikid@example.com",
		When: time.Date(2024, 3, 4, 5, 6, 8, 0, time.FixedZone("", -7*3600))}
)

func TestEncodeCommit(t *testing.T) {
	b := EncodeCommit(testTree, []plumbing.Hash{testParent}, testAuthor, testCommitter, "edit\n\nbody")
	want := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"parent ce013625030ba8dba906f756967f9e9ca394464a\n" +
		"author Ada Lovelace <ada@example.com> 1709508967 +0530\n" +
		"committer wikid <wikid@example.com> 1709553968 -0700\n\nedit\n\nbody\n"
	if string(b) != want {
		t.Fatalf("EncodeCommit:\n%s\nwant:\n%s", b, want)
	}
	c, err := ParseCommit(b)
	if err != nil || c.Tree != testTree || !slices.Equal(c.Parents, []plumbing.Hash{testParent}) {
		t.Errorf("ParseCommit = %+v, %v", c, err)
	}
	info, err := ParseCommitInfo(b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.Parents, []string{testParent.String()}) || info.Message != "edit\n\nbody\n" ||
		info.Author.Name != testAuthor.Name || !info.Author.When.Equal(testAuthor.When) ||
		info.Committer.Email != testCommitter.Email || !info.Committer.When.Equal(testCommitter.When) {
		t.Errorf("ParseCommitInfo = %+v", info)
	}
	if _, off := info.Committer.When.Zone(); off != -7*3600 {
		t.Errorf("committer zone offset %d", off)
	}
}

func TestParseCommit_Errors(t *testing.T) {
	for _, bad := range []string{
		"",
		"parent ce013625030ba8dba906f756967f9e9ca394464a\n\nno tree\n",
		"tree 4b825dc\n",
		"tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent x\n",
	} {
		if c, err := ParseCommit([]byte(bad)); err == nil {
			t.Errorf("ParseCommit(%q) = %+v, no error", bad, c)
		}
	}
}

func FuzzParseCommit(f *testing.F) {
	f.Add(EncodeCommit(testTree, []plumbing.Hash{testParent}, testAuthor, testCommitter, "m"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ParseCommit(b)
		ParseCommitInfo(b)
	})
}

func TestParseSignature(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Signature
		ok      bool
		zoneOff int
	}{
		{"Ada <ada@example.com> 1700000000 +0200", Signature{Name: "Ada", Email: "ada@example.com", When: time.Unix(1700000000, 0)}, true, 7200},
		{"Ada <ada@example.com> 1700000000 -0130", Signature{Name: "Ada", Email: "ada@example.com", When: time.Unix(1700000000, 0)}, true, -5400},
		{"Ada <ada@example.com>", Signature{Name: "Ada", Email: "ada@example.com"}, true, 0},
		{"<> 0 +0000", Signature{When: time.Unix(0, 0)}, true, 0},
		{"Ada ada@example.com 1700000000 +0200", Signature{}, false, 0},
		{"Ada <ada@example.com> x +0200", Signature{}, false, 0},
	} {
		got, err := ParseSignature([]byte(tc.in))
		if (err == nil) != tc.ok || got.Name != tc.want.Name || got.Email != tc.want.Email || !got.When.Equal(tc.want.When) {
			t.Errorf("ParseSignature(%q) = %+v, %v", tc.in, got, err)
			continue
		}
		if _, off := got.When.Zone(); tc.ok && !got.When.IsZero() && off != tc.zoneOff {
			t.Errorf("ParseSignature(%q): zone offset %d, want %d", tc.in, off, tc.zoneOff)
		}
	}
}

func FuzzParseSignature(f *testing.F) {
	f.Add([]byte("Ada <ada@example.com> 1700000000 +0200"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, err := ParseSignature(b)
		if err != nil || sig.When.IsZero() {
			return
		}
		again, err := ParseSignature(AppendSignature(nil, sig))
		if err != nil || !again.When.Equal(sig.When) {
			t.Errorf("%q: %+v appends and parses as %+v, %v", b, sig, again, err)
		}
	})
}
