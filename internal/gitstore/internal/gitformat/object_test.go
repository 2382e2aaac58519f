package gitformat

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestHashObject(t *testing.T) {
	for _, tc := range []struct {
		typ     plumbing.ObjectType
		content string
		want    string // as git hash-object computes it
	}{
		{plumbing.BlobObject, "hello\n", "ce013625030ba8dba906f756967f9e9ca394464a"},
		{plumbing.BlobObject, "", "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{plumbing.TreeObject, "", EmptyTree.String()},
	} {
		if got := HashObject(tc.typ, []byte(tc.content)); got.String() != tc.want {
			t.Errorf("HashObject(%s, %q) = %s, want %s", tc.typ, tc.content, got, tc.want)
		}
	}
}

func TestParseHex(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"ce013625030ba8dba906f756967f9e9ca394464a", true},
		{"CE013625030BA8DBA906F756967F9E9CA394464A", true},
		{"ce013625030ba8dba906f756967f9e9ca394464", false},
		{"ce013625030ba8dba906f756967f9e9ca394464g", false},
		{"", false},
	} {
		id, ok := ParseHex(tc.in)
		if ok != tc.ok || ok && id != plumbing.NewHash(tc.in) {
			t.Errorf("ParseHex(%q) = %s, %v", tc.in, id, ok)
		}
	}
}

func TestTagTarget(t *testing.T) {
	id, err := TagTarget([]byte("object ce013625030ba8dba906f756967f9e9ca394464a\ntype commit\n"))
	if err != nil || id.String() != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("TagTarget = %s, %v", id, err)
	}
	for _, bad := range []string{"", "type commit\n", "object ce01\n"} {
		if _, err := TagTarget([]byte(bad)); err == nil {
			t.Errorf("TagTarget(%q): no error", bad)
		}
	}
}
