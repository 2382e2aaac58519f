package history

import (
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestPairRenames commits deletions and additions with the git CLI and
// compares the renames and similarity scores with git diff -M.
func TestPairRenames(t *testing.T) {
	ten := lines("l", 10)
	long := strings.Repeat("a long line that runs past sixty-four bytes, so git hashes it in chunks ", 3) + "\n"
	tests := []struct {
		name     string
		old, new map[string]string
	}{
		{"same content", map[string]string{"a.md": ten}, map[string]string{"b.md": ten}},
		{"one line of ten changed", map[string]string{"a.md": ten}, map[string]string{"x/a2.md": strings.Replace(ten, "l3\n", "changed\n", 1)}},
		{"half changed", map[string]string{"a.md": ten}, map[string]string{"b.md": lines("l", 5) + lines("m", 5)}},
		{"rewritten", map[string]string{"a.md": ten}, map[string]string{"b.md": lines("z", 10)}},
		{"grown much", map[string]string{"a.md": "l1\n"}, map[string]string{"b.md": "l1\n" + lines("n", 20)}},
		{"CRLF", map[string]string{"a.md": ten}, map[string]string{"b.md": strings.ReplaceAll(ten, "\n", "\r\n")}},
		{"long lines", map[string]string{"a.md": long + long + ten}, map[string]string{"b.md": long + "x" + long + ten}},
		{"binary", map[string]string{"a.bin": "\x00\x01" + ten}, map[string]string{"b.bin": "\x00\x02" + ten}},
		{"same base name wins a tie", map[string]string{"p/n.md": ten, "q/o.md": ten}, map[string]string{"r/o.md": ten}},
		{"same base name, 75% similar", map[string]string{"p/n.md": ten + "x\n", "q/o.md": ten + "y\nz\n"}, map[string]string{"r/o.md": ten + "y\n"}},
		{"two destinations for one source", map[string]string{"a.md": ten}, map[string]string{"b.md": ten + "b\n", "c.md": ten + "c\nc\n"}},
		{"two sources and two destinations", map[string]string{"a.md": ten + "a\n", "b.md": lines("b", 10)},
			map[string]string{"c.md": lines("b", 9) + "c\n", "d.md": ten + "d\n"}},
		{"empty file", map[string]string{"a.md": ""}, map[string]string{"b.md": ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.Init(t)
			gittest.Commit(t, dir, "old", tc.old)
			for f := range tc.old {
				os.Remove(filepath.Join(dir, f))
			}
			gittest.Commit(t, dir, "new", tc.new)
			want := gitLines(t, dir, "diff", "-M", "--name-status", "HEAD~1", "HEAD")
			srcs, dsts := candidates(tc.old), candidates(tc.new)
			var got []string
			paired := map[string]bool{}
			for di, si := range pairRenames(srcs, dsts) {
				if si < 0 {
					got = append(got, "A\t"+dsts[di].path)
					continue
				}
				paired[srcs[si].path] = true
				score := maxScore
				if srcs[si].blob != dsts[di].blob {
					score = similarity(srcs[si], dsts[di], minScore)
				}
				got = append(got, fmt.Sprintf("R%03d\t%s\t%s", score*100/maxScore, srcs[si].path, dsts[di].path))
			}
			for _, s := range srcs {
				if !paired[s.path] {
					got = append(got, "D\t"+s.path)
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("renames:\n%s\ngit diff -M:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// candidates returns files as rename candidates, sorted by path.
func candidates(files map[string]string) []*candidate {
	var out []*candidate
	for p, c := range files {
		out = append(out, &candidate{path: p, blob: blobID(c), content: []byte(c)})
	}
	slices.SortFunc(out, func(a, b *candidate) int { return strings.Compare(a.path, b.path) })
	return out
}

func blobID(content string) oid {
	return sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
}

func lines(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

func gitLines(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(gittest.Git(t, dir, args...), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestSubjectAndTrailers(t *testing.T) {
	tests := []struct {
		msg, subject, tool, client string
	}{
		{"edit: a\n\nWiki-Tool: edit_note\nWiki-Client: claude/1\nWiki-Base: 123\n", "edit: a", "edit_note", "claude/1"},
		{"\n\nfirst line\nsecond line  \n\nbody\n\nWiki-Tool: x\n", "first line second line", "x", ""},
		{"only a subject\n", "only a subject", "", ""},
		{"Wiki-Tool: in the subject\n", "Wiki-Tool: in the subject", "", ""},
		{"s\n\nwiki-tool:  spaced  \n", "s", "spaced", ""},
		{"", "", "", ""},
	}
	for _, tc := range tests {
		if got := subjectOf(tc.msg); got != tc.subject {
			t.Errorf("subjectOf(%q) = %q, want %q", tc.msg, got, tc.subject)
		}
		if tool, client := trailers(tc.msg); tool != tc.tool || client != tc.client {
			t.Errorf("trailers(%q) = %q, %q, want %q, %q", tc.msg, tool, client, tc.tool, tc.client)
		}
	}
}

func TestRecord_RoundTrip(t *testing.T) {
	p := &pending{
		id: blobID("c"), parents: []oid{blobID("p1"), blobID("p2")},
		author:    person{name: "Ada", email: "ada@example.com", when: 1700000000, tz: 3600},
		committer: person{name: "wikid", email: "w@example.com", when: -5, tz: -18000},
		subject:   "s", tool: "edit_note", client: "c/1",
		changes: []pendingChange{
			{path: "a.md", from: "", old: blobID("o"), new: blobID("n"), add: 3, del: 1, radd: 3, rdel: 1},
			{path: "b.md", from: "z.md", new: blobID("b"), add: -1, del: -1, radd: 2, rdel: 0,
				side: []pendingSide{{blob: blobID("s")}, {from: "y.md", fromBlob: blobID("y")}}},
			{path: "c.md", new: blobID("c"), flags: flagLinesUnknown | flagRenameUnknown},
			{path: "d.md", from: "x.md", new: blobID("d"), flags: flagRenameLinesUnknown},
		},
		missing:        []oid{blobID("c"), blobID("x")},
		changesUnknown: true,
	}
	b := appendRecord(nil, p)
	got, n, err := readRecord(b)
	if err != nil || n != len(b) {
		t.Fatalf("readRecord: %v, %d of %d bytes", err, n, len(b))
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", p) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, p)
	}
	for i := range b {
		if _, _, err := readRecord(b[:i]); err == nil {
			t.Errorf("a record cut to %d bytes reads", i)
		}
	}
}
