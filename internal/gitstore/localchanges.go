package gitstore

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/status"
	"github.com/wikid/wikid/internal/wiki"
)

// maxScanEntries bounds the directory entries LocalChanges reads from the
// checkout, so that a huge untracked tree cannot make it slow.
const maxScanEntries = 50_000

// CheckoutChange reports how the checked-out file (repository-relative,
// with extension) differs from its content at commit: "" when it has that
// content, and always in a bare repository; else why, as CheckWorktree
// names it ("modified", "deleted", "untracked" for a file on disk that
// commit lacks, "mode changed", ...). It reads the file and hashes it; the
// index is not consulted. It returns an error of code INVALID_PATH for a
// malformed path and one wrapping wiki.ErrNotFound for an unknown commit.
func (s *Store) CheckoutChange(ctx context.Context, commit, file string) (string, error) {
	if err := s.check(ctx); err != nil {
		return "", err
	}
	if s.workTree == "" {
		return "", nil
	}
	parts, err := splitPath(file)
	if err != nil {
		return "", err
	}
	root, err := s.rootTree(commit)
	if err != nil {
		return "", fmt.Errorf("check %s: %w", file, err)
	}
	c := &change{path: file, parts: parts}
	if !root.IsZero() {
		old, ok, err := s.lookup(root, parts)
		if err != nil {
			return "", fmt.Errorf("check %s: %w", file, err)
		}
		if ok && gitformat.IsRegularMode(old.Mode) {
			c.old, c.hadOld = old, true
		}
	}
	return s.checkFile(c), nil
}

// LocalChanges compares the files of a checkout that keep accepts with
// their content at commit, as `git status` would, without the global
// excludes file: the files commit has whose checked-out file differs
// (edited, deleted, replaced), and the files on disk that commit lacks and
// .gitignore or info/exclude do not ignore (untracked, or only added to the
// index). Folders and files whose name starts with a dot are left out. A
// file whose stat data matches its index entry, which holds commit's
// content, is taken as unchanged, as git does; others are read and hashed.
// It reads at most maxScanEntries directory entries, then stops and sets
// Partial. A bare repository has no local changes. It returns an error
// wrapping wiki.ErrNotFound for an unknown commit.
func (s *Store) LocalChanges(ctx context.Context, commit string, keep func(file string) bool, max int) (wiki.LocalChanges, error) {
	var lc wiki.LocalChanges
	if err := s.check(ctx); err != nil {
		return lc, err
	}
	if s.workTree == "" {
		return lc, nil
	}
	root, err := s.rootTree(commit)
	if err != nil {
		return lc, fmt.Errorf("local changes: %w", err)
	}
	sc := &status.Scan{WorkTree: s.workTree, Keep: keep, Head: map[string]gitformat.TreeEntry{}, Dirs: map[string]bool{}, Budget: maxScanEntries}
	if !root.IsZero() {
		err := s.walk(root, "", func(p string, e gitformat.TreeEntry) {
			if !keep(p) || hasDotSegment(p) {
				return
			}
			sc.Head[p] = e
			for d := path.Dir(p); d != "." && !sc.Dirs[d]; d = path.Dir(d) {
				sc.Dirs[d] = true
			}
		})
		if err != nil {
			return lc, fmt.Errorf("local changes: %w", err)
		}
	}
	if sc.Index, err = gitindex.Read(s.indexPath(), nil); err != nil {
		return lc, fmt.Errorf("local changes: %w", err)
	}
	ps := status.ReadIgnoreFile(filepath.Join(s.commonDir, "info", "exclude"), nil)
	modified, untracked, err := sc.Run(ctx, ps)
	switch {
	case errors.Is(err, status.ErrBound):
		lc.Partial = true
	case err != nil:
		return lc, fmt.Errorf("local changes: %w", err)
	}
	lc.Modified, lc.Untracked = len(modified), len(untracked)
	lc.ModifiedPaths, lc.UntrackedPaths = firstPaths(modified, max), firstPaths(untracked, max)
	return lc, nil
}

// hasDotSegment reports whether a path has a name starting with a dot.
func hasDotSegment(p string) bool {
	return strings.HasPrefix(p, ".") || strings.Contains(p, "/.")
}

// firstPaths returns the first max of paths in order.
func firstPaths(paths []string, max int) []string {
	slices.Sort(paths)
	return paths[:min(max, len(paths))]
}
