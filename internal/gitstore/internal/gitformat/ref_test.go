package gitformat

import (
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

func TestCheckRefName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"refs/heads/main", true},
		{"HEAD", true},
		{"refs/heads/feature/x-1", true},
		{"", false},
		{"/refs/heads/main", false},
		{"refs/heads/", false},
		{"refs/heads/main.lock", false},
		{"refs/heads/../../config", false},
		{"refs//heads", false},
		{"refs/heads/a b", false},
		{"refs/heads/a~1", false},
		{"refs/heads/a^", false},
		{"refs/heads/a:b", false},
		{"refs/heads/a\\b", false},
		{"refs/heads/a@{1}", false},
		{"refs/heads/a\x01", false},
	} {
		if err := CheckRefName(tc.name); (err == nil) != tc.ok {
			t.Errorf("CheckRefName(%q) = %v", tc.name, err)
		}
	}
}

func TestParsePackedRefs(t *testing.T) {
	refs := ParsePackedRefs([]byte("# pack-refs with: peeled fully-peeled sorted \n" +
		"ce013625030ba8dba906f756967f9e9ca394464a refs/heads/main\n" +
		"4b825dc642cb6eb9a060e54bf8d69288fbee4904 refs/tags/v1\n" +
		"^ce013625030ba8dba906f756967f9e9ca394464a\n" +
		"not-an-id refs/heads/bad\n"))
	want := map[string]plumbing.Hash{
		"refs/heads/main": plumbing.NewHash("ce013625030ba8dba906f756967f9e9ca394464a"),
		"refs/tags/v1":    EmptyTree,
	}
	if len(refs) != len(want) {
		t.Errorf("refs %v, want %v", refs, want)
	}
	for name, id := range want {
		if refs[name] != id {
			t.Errorf("%s = %s, want %s", name, refs[name], id)
		}
	}
}

func TestReflogLine(t *testing.T) {
	got := ReflogLine(plumbing.ZeroHash, testParent, testCommitter, "commit (initial): a\nb\n")
	want := "0000000000000000000000000000000000000000 ce013625030ba8dba906f756967f9e9ca394464a " +
		"wikid <wikid@example.com> 1709553968 -0700\tcommit (initial): a b\n"
	if string(got) != want {
		t.Errorf("ReflogLine = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		message string
		initial bool
		want    string
	}{
		{"edit a\n\nbody\n", false, "commit: edit a"},
		{"\nfirst\n", true, "commit (initial): first"},
	} {
		if got := ReflogMessage(tc.message, tc.initial); got != tc.want {
			t.Errorf("ReflogMessage(%q, %v) = %q, want %q", tc.message, tc.initial, got, tc.want)
		}
	}
}
