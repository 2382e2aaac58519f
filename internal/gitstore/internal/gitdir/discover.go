package gitdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Layout is where the parts of a repository live.
type Layout struct {
	GitDir    string // HEAD, index, logs/HEAD: per worktree
	CommonDir string // objects, refs, packed-refs, config: shared by worktrees
	WorkTree  string // "" for a bare repository
}

// ErrNoRepository is returned by Discover when there is no git repository
// at or above the path.
var ErrNoRepository = errors.New("no git repository")

// Discover finds the repository containing path the way git does: at each
// level from path up, a ".git" folder or file, else the folder itself being
// a git directory. It returns an error wrapping ErrNoRepository when there
// is none, and one naming the file when a ".git" file or a commondir file
// cannot be read.
func Discover(path string) (Layout, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Layout{}, fmt.Errorf("resolve %q: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Layout{}, fmt.Errorf("open repository: %w", err)
	}
	if !fi.IsDir() {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		l, ok, err := probe(dir)
		if err != nil || ok {
			return l, err
		}
		if filepath.Dir(dir) == dir {
			return Layout{}, fmt.Errorf("open repository: %w at or above %q", ErrNoRepository, abs)
		}
	}
}

// probe looks for a repository at dir itself.
func probe(dir string) (Layout, bool, error) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err == nil && fi.IsDir():
		l, err := withCommonDir(Layout{GitDir: dotgit, WorkTree: dir})
		return l, true, err
	case err == nil && fi.Mode().IsRegular():
		gitDir, err := readGitFile(dotgit)
		if err != nil {
			return Layout{}, true, err
		}
		l, err := withCommonDir(Layout{GitDir: gitDir, WorkTree: dir})
		return l, true, err
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return Layout{}, true, fmt.Errorf("open repository: %w", err)
	}
	if !isGitDir(dir) {
		return Layout{}, false, nil
	}
	l := Layout{GitDir: dir}
	if filepath.Base(dir) == ".git" {
		l.WorkTree = filepath.Dir(dir) // opened from inside a checkout's .git
	}
	l, err = withCommonDir(l)
	return l, true, err
}

// readGitFile reads a ".git" file ("gitdir: <path>"), as used by linked
// worktrees and submodules.
func readGitFile(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	target = strings.TrimSpace(target)
	if !ok || target == "" {
		return "", fmt.Errorf("read %s: not a \"gitdir: <path>\" file", name)
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(name), target)
	}
	if !isGitDir(target) {
		return "", fmt.Errorf("read %s: %s is not a git directory", name, target)
	}
	return filepath.Clean(target), nil
}

// isGitDir reports whether dir looks like a git directory.
func isGitDir(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "commondir")); err == nil {
		return true
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// withCommonDir fills in the common directory of a linked worktree.
func withCommonDir(l Layout) (Layout, error) {
	l.CommonDir = l.GitDir
	b, err := os.ReadFile(filepath.Join(l.GitDir, "commondir"))
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("read commondir: %w", err)
	}
	dir := strings.TrimSpace(string(b))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(l.GitDir, dir)
	}
	l.CommonDir = filepath.Clean(dir)
	return l, nil
}
