package textdiff

import (
	"errors"
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
