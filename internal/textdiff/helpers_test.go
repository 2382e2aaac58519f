package textdiff

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// newRepo creates a git repository whose files are all diffed as text with
// no function names in hunk headers, so that git's output can be compared
// with Unified's.
func newRepo(tb testing.TB) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Git(tb, dir, "config", "diff.plain.binary", "false")
	gittest.Git(tb, dir, "config", "diff.plain.xfuncname", "^NO FUNCTION NAMES$")
	writeTestFile(tb, filepath.Join(dir, ".git", "info", "attributes"), "* diff=plain\n")
	return dir
}

func writeTestFile(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// setFiles makes the files of fds' old (or new) side exist in dir, and
// removes the files of the other side that are not on this one.
func setFiles(tb testing.TB, dir string, fds []FileDiff, newSide bool) {
	tb.Helper()
	for _, f := range fds {
		path, content, other := f.OldPath, f.Old, f.NewPath
		if newSide {
			path, content, other = f.NewPath, f.New, f.OldPath
		}
		if other != "" && other != path {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(other))); err != nil && !errors.Is(err, os.ErrNotExist) {
				tb.Fatal(err)
			}
		}
		if path != "" {
			writeTestFile(tb, filepath.Join(dir, filepath.FromSlash(path)), string(content))
		}
	}
}

// checkApply applies patch to dir with `git apply` and checks that every new
// file of fds then holds New byte for byte and every deleted or renamed-away
// file is gone.
func checkApply(tb testing.TB, dir, patch string, fds []FileDiff, flags ...string) {
	tb.Helper()
	pf := filepath.Join(tb.TempDir(), "change.patch")
	writeTestFile(tb, pf, patch)
	check := append([]string{"apply", "--check"}, flags...)
	if out, err := gittest.TryGit(dir, append(check, pf)...); err != nil {
		tb.Fatalf("git apply --check: %v\n%s\npatch:\n%s", err, out, patch)
	}
	gittest.Git(tb, dir, append(append([]string{"apply"}, flags...), pf)...)
	for _, f := range fds {
		if f.NewPath != "" {
			got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.NewPath)))
			if err != nil {
				tb.Fatal(err)
			}
			if string(got) != string(f.New) {
				tb.Errorf("%s after git apply = %q, want %q\npatch:\n%s", f.NewPath, got, f.New, patch)
			}
		}
		if f.OldPath != "" && f.OldPath != f.NewPath {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.OldPath))); !errors.Is(err, os.ErrNotExist) {
				tb.Errorf("%s still exists after git apply (err %v)", f.OldPath, err)
			}
		}
	}
}

// numstat returns `git diff --cached --numstat` of the staged change in dir
// by path.
func numstat(tb testing.TB, dir string) map[string]Stats {
	tb.Helper()
	out := gittest.Git(tb, dir, "diff", "--cached", "--no-renames", "--numstat", "-z")
	got := make(map[string]Stats)
	for _, rec := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		fields := strings.SplitN(rec, "\t", 3)
		if len(fields) != 3 {
			tb.Fatalf("numstat record %q", rec)
		}
		add, err1 := strconv.Atoi(fields[0])
		del, err2 := strconv.Atoi(fields[1])
		if err1 != nil || err2 != nil {
			tb.Fatalf("numstat record %q: not text", rec)
		}
		got[fields[2]] = Stats{Additions: add, Deletions: del}
	}
	return got
}

// gitMergeFile runs `git merge-file -p` on the three texts and returns the
// merged text and the number of conflicts git reports.
func gitMergeFile(tb testing.TB, base, ours, theirs string) (string, int) {
	tb.Helper()
	dir := tb.TempDir()
	writeTestFile(tb, filepath.Join(dir, "base"), base)
	writeTestFile(tb, filepath.Join(dir, "ours"), ours)
	writeTestFile(tb, filepath.Join(dir, "theirs"), theirs)
	out, err := gittest.TryGit(dir, "merge-file", "-p", "ours", "base", "theirs")
	if err == nil {
		return out, 0
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() < 0 || exit.ExitCode() > 127 {
		tb.Fatalf("git merge-file: %v\n%s", err, out)
	}
	return out, exit.ExitCode()
}

// applyUnified applies a one-file diff made by Unified to old. It is strict:
// every hunk must start where its header says, its context and deleted lines
// must match old exactly, and its counts must add up.
func applyUnified(old []byte, patch string) ([]byte, error) {
	src := splitLines(string(old))
	lines := splitLines(patch)
	var out []string
	pos := 0 // next line of src
	for i := 0; i < len(lines); {
		l := lines[i]
		i++
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		var a, b, c, d int
		if err := parseHunkHeader(l, &a, &b, &c, &d); err != nil {
			return nil, err
		}
		start := a - 1
		if b == 0 {
			start = a
		}
		if start < pos || start > len(src) {
			return nil, fmt.Errorf("hunk %q starts at line %d, before %d or past %d", l, start, pos, len(src))
		}
		out = append(out, src[pos:start]...)
		pos = start
		newStart := c - 1
		if d == 0 {
			newStart = c
		}
		if len(out) != newStart {
			return nil, fmt.Errorf("hunk %q: new side starts after %d lines", l, len(out))
		}
		for b > 0 || d > 0 {
			if i >= len(lines) {
				return nil, fmt.Errorf("hunk %q is cut short", l)
			}
			hl := lines[i]
			i++
			text := hl[1:]
			if i < len(lines) && lines[i] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch hl[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					return nil, fmt.Errorf("hunk %q: line %d does not match %q", l, pos+1, text)
				}
				pos++
				b--
				if hl[0] == ' ' {
					out = append(out, text)
					d--
				}
			case '+':
				out = append(out, text)
				d--
			default:
				return nil, fmt.Errorf("hunk %q: bad line %q", l, hl)
			}
			if b < 0 || d < 0 {
				return nil, fmt.Errorf("hunk %q: more lines than the header says", l)
			}
		}
	}
	out = append(out, src[pos:]...)
	return []byte(strings.Join(out, "")), nil
}

func parseHunkHeader(l string, a, b, c, d *int) error {
	f := strings.Fields(l)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || f[1][0] != '-' || f[2][0] != '+' {
		return fmt.Errorf("bad hunk header %q", l)
	}
	parse := func(s string, start, n *int) error {
		num, count, found := strings.Cut(s, ",")
		var err error
		if *start, err = strconv.Atoi(num); err != nil {
			return fmt.Errorf("bad hunk header %q: %w", l, err)
		}
		*n = 1
		if found {
			if *n, err = strconv.Atoi(count); err != nil {
				return fmt.Errorf("bad hunk header %q: %w", l, err)
			}
		}
		return nil
	}
	if err := parse(f[1][1:], a, b); err != nil {
		return err
	}
	return parse(f[2][1:], c, d)
}

// textGen makes random note-like lines. Unique lines never repeat, so the
// minimal line diff between two generated texts is unambiguous; common lines
// come from a small vocabulary and repeat.
type textGen struct {
	r      *rand.Rand
	next   int
	common []string
	nul    bool // whether unique lines may hold NUL bytes
}

func newTextGen(seed int64) *textGen {
	return &textGen{r: rand.New(rand.NewSource(seed)), common: []string{
		"\n", "---\n", "- [ ] todo\n", "## Notes\n", "See [[index]].\n", "\r\n", "* item\n",
	}, nul: true}
}

// unique returns a line no other call returns, sometimes with a CRLF ending,
// trailing whitespace, invalid UTF-8 or (if g.nul) a NUL byte.
func (g *textGen) unique() string {
	g.next++
	s := fmt.Sprintf("line %d of the note", g.next)
	switch g.r.Intn(20) {
	case 0:
		s += "\r"
	case 1:
		s += " \t "
	case 2:
		s += " \xff\xfe caf\xe9"
	case 3:
		if g.nul {
			s += " \x00 nul"
		}
	case 4:
		s = "# " + s
	}
	return s + "\n"
}

// line returns a unique line, or with probability pCommon a common one.
func (g *textGen) line(pCommon float64) string {
	if g.r.Float64() < pCommon {
		return g.common[g.r.Intn(len(g.common))]
	}
	return g.unique()
}

// text returns n lines.
func (g *textGen) text(n int, pCommon float64) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = g.line(pCommon)
	}
	return lines
}

// edit applies k random insertions, deletions and replacements of up to
// three lines to a copy of lines.
func (g *textGen) edit(lines []string, k int, pCommon float64) []string {
	out := append([]string(nil), lines...)
	for range k {
		at := g.r.Intn(len(out) + 1)
		n := 1 + g.r.Intn(3)
		del := 0
		switch g.r.Intn(3) {
		case 1:
			del = min(n, len(out)-at)
			n = 0
		case 2:
			del = min(1+g.r.Intn(3), len(out)-at)
		}
		out = append(out[:at], append(g.text(n, pCommon), out[at+del:]...)...)
	}
	return out
}

// join joins lines, dropping the final newline if noEOL.
func join(lines []string, noEOL bool) string {
	s := strings.Join(lines, "")
	if noEOL {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}
