package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
	"github.com/wikid/wikid/internal/gitstore/gitindex"
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
	sc := &scan{s: s, keep: keep, head: map[string]gitformat.TreeEntry{}, dirs: map[string]bool{}, budget: maxScanEntries}
	if !root.IsZero() {
		err := s.walk(root, "", func(p string, e gitformat.TreeEntry) {
			if !keep(p) || hasDotSegment(p) {
				return
			}
			sc.head[p] = e
			for d := path.Dir(p); d != "." && !sc.dirs[d]; d = path.Dir(d) {
				sc.dirs[d] = true
			}
		})
		if err != nil {
			return lc, fmt.Errorf("local changes: %w", err)
		}
	}
	if sc.ix, err = gitindex.Read(s.indexPath(), nil); err != nil {
		return lc, fmt.Errorf("local changes: %w", err)
	}
	sc.seen = make(map[string]bool, len(sc.head))
	ps := readIgnoreFile(filepath.Join(s.commonDir, "info", "exclude"), nil)
	err = sc.dir(ctx, "", nil, ps)
	switch {
	case errors.Is(err, errScanBound):
		lc.Partial = true
	case err != nil:
		return lc, fmt.Errorf("local changes: %w", err)
	default:
		for p := range sc.head {
			if !sc.seen[p] {
				sc.modified = append(sc.modified, p)
			}
		}
	}
	lc.Modified, lc.Untracked = len(sc.modified), len(sc.untracked)
	lc.ModifiedPaths, lc.UntrackedPaths = firstPaths(sc.modified, max), firstPaths(sc.untracked, max)
	return lc, nil
}

// errScanBound stops a scan that read maxScanEntries entries.
var errScanBound = errors.New("scan bound reached")

// scan is one LocalChanges walk of the checkout.
type scan struct {
	s    *Store
	keep func(string) bool
	head map[string]gitformat.TreeEntry // the kept files at the commit
	dirs map[string]bool                // the folders holding them
	ix   *gitindex.File                 // nil without an index file
	seen map[string]bool                // files of head found on disk

	budget              int
	modified, untracked []string
}

// dir scans the folder rel (parts) with the ignore patterns ps of its
// parents.
func (sc *scan) dir(ctx context.Context, rel string, parts []string, ps []gitignore.Pattern) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	full := filepath.Join(sc.s.workTree, filepath.FromSlash(rel))
	entries, err := os.ReadDir(full)
	if err != nil {
		return nil // unreadable: its files count as deleted, none as untracked
	}
	if sc.budget -= len(entries); sc.budget < 0 {
		return errScanBound
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			ps = append(slices.Clip(ps), readIgnoreFile(filepath.Join(full, e.Name()), parts)...)
		}
	}
	m := gitignore.NewMatcher(ps)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p, sub := name, append(slices.Clip(parts), name)
		if rel != "" {
			p = rel + "/" + name
		}
		switch {
		case e.IsDir():
			if !sc.dirs[p] && m.Match(sub, true) {
				continue // ignored, and no tracked file lies under it
			}
			if err := sc.dir(ctx, p, sub, ps); err != nil {
				return err
			}
		case e.Type().IsRegular() && sc.keep(p):
			te, tracked := sc.head[p]
			switch {
			case tracked:
				sc.seen[p] = true
				if sc.differs(p, filepath.Join(full, name), te) {
					sc.modified = append(sc.modified, p)
				}
			case !m.Match(sub, false):
				sc.untracked = append(sc.untracked, p)
			}
		}
	}
	return nil
}

// differs reports whether the file on disk lacks the content te has.
func (sc *scan) differs(p, full string, te gitformat.TreeEntry) bool {
	if sc.ix != nil {
		if e, n := sc.ix.Lookup(p); n == 1 && e.Stage() == 0 && e.ID() == te.ID {
			fi, err := os.Lstat(full)
			if err != nil {
				return true
			}
			if sc.ix.StatClean(e, fi) {
				return false
			}
		}
	}
	b, err := os.ReadFile(full)
	return err != nil || gitformat.HashObject(plumbing.BlobObject, b) != te.ID
}

// readIgnoreFile reads the patterns of a .gitignore or exclude file that
// applies to the folder domain; a missing file has none.
func readIgnoreFile(name string, domain []string) []gitignore.Pattern {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if !strings.HasPrefix(line, "#") && strings.TrimSpace(line) != "" {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
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
