package textdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// numbered returns lines "1\n" … "n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// replaceLine replaces line i (1-based) of s with repl.
func replaceLine(s string, i int, repl string) string {
	lines := splitLines(s)
	lines[i-1] = repl
	return strings.Join(lines, "")
}

func TestUnified(t *testing.T) {
	ten := numbered(10)
	forty := numbered(40)
	huge := strings.Repeat("0123456789abcdef", 1<<16) // one 1 MiB line
	tests := []struct {
		name string
		fd   FileDiff
		// sameAsGit says Unified's output equals `git diff`'s byte for byte.
		sameAsGit bool
	}{
		{"edit middle line", FileDiff{"n.md", "n.md", []byte(ten), []byte(replaceLine(ten, 5, "five\n"))}, true},
		{"edit first line", FileDiff{"n.md", "n.md", []byte(ten), []byte(replaceLine(ten, 1, "one\n"))}, true},
		{"edit last line", FileDiff{"n.md", "n.md", []byte(ten), []byte(replaceLine(ten, 10, "ten\n"))}, true},
		{"append lines", FileDiff{"n.md", "n.md", []byte(ten), []byte(ten + "11\n12\n")}, true},
		{"prepend line", FileDiff{"n.md", "n.md", []byte(ten), []byte("0\n" + ten)}, true},
		{"delete first line", FileDiff{"n.md", "n.md", []byte(ten), []byte(strings.TrimPrefix(ten, "1\n"))}, true},
		{"delete last line", FileDiff{"n.md", "n.md", []byte(ten), []byte(strings.TrimSuffix(ten, "10\n"))}, true},
		{"two changes merged into one hunk", FileDiff{"n.md", "n.md", []byte(forty), []byte(replaceLine(replaceLine(forty, 10, "x\n"), 17, "y\n"))}, true},
		{"two changes in two hunks", FileDiff{"n.md", "n.md", []byte(forty), []byte(replaceLine(replaceLine(forty, 10, "x\n"), 18, "y\n"))}, true},
		{"changes far apart", FileDiff{"n.md", "n.md", []byte(forty), []byte(replaceLine(replaceLine(forty, 2, "x\n"), 39, "y\n"))}, true},
		{"old without final newline", FileDiff{"n.md", "n.md", []byte("a\nb"), []byte("a\nb\nc\n")}, true},
		{"new without final newline", FileDiff{"n.md", "n.md", []byte("a\nb\n"), []byte("a\nb")}, true},
		{"neither with final newline", FileDiff{"n.md", "n.md", []byte("a\nb\nc"), []byte("a\nB\nc")}, true},
		{"edit last line without newline", FileDiff{"n.md", "n.md", []byte("a\nb\nc"), []byte("a\nb\nC")}, true},
		{"one line without newline", FileDiff{"n.md", "n.md", []byte("a"), []byte("b")}, true},
		{"only the final newline added", FileDiff{"n.md", "n.md", []byte("a"), []byte("a\n")}, true},
		{"empty to content", FileDiff{"n.md", "n.md", nil, []byte("a\nb\n")}, true},
		{"content to empty", FileDiff{"n.md", "n.md", []byte("a\nb\n"), nil}, true},
		{"CRLF to LF on one line", FileDiff{"n.md", "n.md", []byte("a\r\nb\r\nc\r\n"), []byte("a\r\nb\nc\r\n")}, true},
		{"edit in a CRLF file", FileDiff{"n.md", "n.md", []byte("a\r\nb\r\nc\r\n"), []byte("a\r\nB\r\nc\r\n")}, true},
		{"lone CR inside a line", FileDiff{"n.md", "n.md", []byte("a\rb\nc\n"), []byte("a\rB\nc\n")}, true},
		{"huge single line", FileDiff{"n.md", "n.md", []byte("x\n" + huge + "\ny\n"), []byte("x\n" + huge + "!\ny\n")}, true},
		{"binary-looking content", FileDiff{"n.md", "n.md", []byte("a\x00b\n\x01\x02\x03\nc\n"), []byte("a\x00b\n\x01\x02\x04\nc\n")}, true},
		{"invalid UTF-8", FileDiff{"n.md", "n.md", []byte("caf\xe9\n\xff\xfe\n\xc3\n"), []byte("caf\xe9!\n\xff\xfe\n\xc3\x28\n")}, true},
		{"whitespace-only lines", FileDiff{"n.md", "n.md", []byte("a\n \n\t\nb \n"), []byte("a\n\n\t \nb \n")}, true},
		{"blank lines", FileDiff{"n.md", "n.md", []byte("\n\n\n"), []byte("\n\nx\n\n")}, true},
		{"delete one of repeated lines", FileDiff{"n.md", "n.md", []byte("a\nx\nx\nx\nb\n"), []byte("a\nx\nx\nb\n")}, true},
		{"insert a repeated line", FileDiff{"n.md", "n.md", []byte("a\nx\nb\n"), []byte("a\nx\nx\nb\n")}, true},
		{"insert a section", FileDiff{"n.md", "n.md", []byte("## A\ntext\n\n## B\ntext\n"), []byte("## A\ntext\n\n## New\ntext\n\n## B\ntext\n")}, true},
		{"delete a list item", FileDiff{"n.md", "n.md", []byte("- a\n- b\n- a\n- b\n"), []byte("- a\n- b\n")}, true},
		{"create", FileDiff{"", "new.md", nil, []byte("# New\n\nbody\n")}, true},
		{"create without final newline", FileDiff{"", "new.md", nil, []byte("# New")}, true},
		{"create empty", FileDiff{"", "empty.md", nil, nil}, true},
		{"delete", FileDiff{"old.md", "", []byte("# Old\nbody\n"), nil}, true},
		{"delete empty", FileDiff{"old.md", "", nil, nil}, true},
		{"rename", FileDiff{"a/old.md", "b/new.md", []byte(ten), []byte(ten)}, true},
		{"rename with edit", FileDiff{"old.md", "new.md", []byte(forty), []byte(replaceLine(forty, 20, "x\n"))}, false},
		{"path with space", FileDiff{"Meeting notes/2024 Q1.md", "Meeting notes/2024 Q1.md", []byte(ten), []byte(replaceLine(ten, 3, "x\n"))}, true},
		{"create path with space", FileDiff{"", "a b.md", nil, []byte("x\n")}, true},
		{"non-ASCII path", FileDiff{"café/日記.md", "café/日記.md", []byte(ten), []byte(replaceLine(ten, 3, "x\n"))}, true},
		{"path with quote and backslash", FileDiff{`we"ird\name.md`, `we"ird\name.md`, []byte(ten), []byte(replaceLine(ten, 3, "x\n"))}, true},
		{"rename to non-ASCII path", FileDiff{"a b.md", "naïve.md", []byte(ten), []byte(ten)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newRepo(t)
			fds := []FileDiff{tt.fd}
			setFiles(t, dir, fds, false)
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", "old")

			got := Unified(fds, 3)
			checkApply(t, dir, got, fds)

			gittest.Git(t, dir, "add", "-A")
			if tt.sameAsGit {
				want := gittest.Git(t, dir, "diff", "--cached", "-M")
				if got != want {
					t.Errorf("Unified differs from git diff\n got:\n%s\nwant:\n%s", got, want)
				}
			}
			if tt.fd.OldPath == tt.fd.NewPath {
				want := numstat(t, dir)[tt.fd.NewPath]
				if st := Count(tt.fd.Old, tt.fd.New); st != want {
					t.Errorf("Count = %+v, git diff --numstat says %+v", st, want)
				}
			}
		})
	}
}

func TestUnified_Unchanged(t *testing.T) {
	tests := []struct {
		name string
		fds  []FileDiff
	}{
		{"no files", nil},
		{"identical", []FileDiff{{"n.md", "n.md", []byte("a\nb\n"), []byte("a\nb\n")}}},
		{"identical without final newline", []FileDiff{{"n.md", "n.md", []byte("a\nb"), []byte("a\nb")}}},
		{"identical empty", []FileDiff{{"n.md", "n.md", nil, []byte{}}}},
		{"no paths", []FileDiff{{"", "", []byte("a\n"), []byte("b\n")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified(tt.fds, 3); got != "" {
				t.Errorf("Unified = %q, want empty", got)
			}
		})
	}
}

// TestUnified_Context checks hunk merging and context sizes other than 3
// against git diff -U<n>.
func TestUnified_Context(t *testing.T) {
	forty := numbered(40)
	changed := replaceLine(replaceLine(replaceLine(forty, 5, "x\n"), 9, "y\n"), 30, "z\n")
	fds := []FileDiff{{"n.md", "n.md", []byte(forty), []byte(changed)}}
	for _, ctx := range []int{0, 1, 2, 3, 5, 10, 100} {
		t.Run(fmt.Sprintf("U%d", ctx), func(t *testing.T) {
			dir := newRepo(t)
			gittest.Commit(t, dir, "old", map[string]string{"n.md": forty})
			got := Unified(fds, ctx)
			var flags []string
			if ctx == 0 {
				flags = append(flags, "--unidiff-zero")
			}
			checkApply(t, dir, got, fds, flags...)
			want := gittest.Git(t, dir, "diff", fmt.Sprintf("-U%d", ctx))
			if got != want {
				t.Errorf("Unified differs from git diff -U%d\n got:\n%s\nwant:\n%s", ctx, got, want)
			}
		})
	}
	t.Run("negative is zero", func(t *testing.T) {
		if got, want := Unified(fds, -1), Unified(fds, 0); got != want {
			t.Errorf("Unified(-1) = %q, want %q", got, want)
		}
	})
}

// TestUnified_Files checks one diff of several files of every kind against
// git apply and git diff.
func TestUnified_Files(t *testing.T) {
	ten := numbered(10)
	// In git's order: by path.
	fds := []FileDiff{
		{"a.md", "a.md", []byte(ten), []byte(replaceLine(ten, 4, "four\n"))},
		{"b.md", "", []byte("gone\n"), nil},
		{"", "c.md", nil, []byte("new\n")},
		{"d.md", "d.md", []byte("same\n"), []byte("same\n")},
		{"e.md", "e.md", []byte("x"), []byte("x\ny")},
		{"old/f.md", "sub/f.md", []byte(ten), []byte(ten)},
	}
	dir := newRepo(t)
	setFiles(t, dir, fds, false)
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "old")
	got := Unified(fds, 3)
	checkApply(t, dir, got, fds)
	gittest.Git(t, dir, "add", "-A")
	if want := gittest.Git(t, dir, "diff", "--cached", "-M"); got != want {
		t.Errorf("Unified differs from git diff\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestUnified_Random checks Unified and Count on 240 seeded random edit
// sequences against git apply and git diff --numstat, for several context
// sizes. Where all lines are distinct the minimal diff is unique, and there
// the output must also equal git diff's byte for byte.
func TestUnified_Random(t *testing.T) {
	const cases = 240
	g := newTextGen(1)
	var fds []FileDiff
	var distinct []FileDiff // the cases whose lines never repeat
	for i := range cases {
		pCommon := 0.0
		folder := "u"
		if i%2 == 1 {
			pCommon, folder = 0.35, "c"
		}
		old := g.text(g.r.Intn(60), pCommon)
		edited := g.edit(old, 1+g.r.Intn(6), pCommon)
		fd := FileDiff{
			OldPath: fmt.Sprintf("%s/%03d.md", folder, i),
			Old:     []byte(join(old, g.r.Intn(4) == 0)),
			New:     []byte(join(edited, g.r.Intn(4) == 0)),
		}
		fd.NewPath = fd.OldPath
		fds = append(fds, fd)
		if pCommon == 0 {
			distinct = append(distinct, fd)
		}
	}
	dir := newRepo(t)
	setFiles(t, dir, fds, false)
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "-m", "old")

	for _, ctx := range []int{3, 0, 1, 8} {
		t.Run(fmt.Sprintf("U%d", ctx), func(t *testing.T) {
			setFiles(t, dir, fds, false)
			var flags []string
			if ctx == 0 {
				flags = append(flags, "--unidiff-zero")
			}
			checkApply(t, dir, Unified(fds, ctx), fds, flags...)
			want := gittest.Git(t, dir, "diff", fmt.Sprintf("-U%d", ctx), "--", "u/")
			if got := Unified(distinct, ctx); got != want {
				t.Errorf("Unified of distinct lines differs from git diff -U%d\n got:\n%s\nwant:\n%s", ctx, got, want)
			}
		})
	}
	t.Run("numstat", func(t *testing.T) {
		setFiles(t, dir, fds, true)
		gittest.Git(t, dir, "add", "-A")
		want := numstat(t, dir)
		for _, fd := range fds {
			if got := Count(fd.Old, fd.New); got != want[fd.NewPath] {
				t.Errorf("%s: Count = %+v, git diff --numstat says %+v\nold %q\nnew %q", fd.NewPath, got, want[fd.NewPath], fd.Old, fd.New)
			}
		}
	})
}
