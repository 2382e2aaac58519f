// Package status compares a checkout's files with a commit's tree, as git
// status does, without the global excludes file: the files the commit has
// whose checked-out file differs, and the files on disk that it lacks and
// .gitignore or info/exclude do not ignore.
package status

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
)

// ErrBound stops a scan that read its budget of directory entries.
var ErrBound = errors.New("scan bound reached")

// Scan is one walk of a checkout.
type Scan struct {
	WorkTree string
	Keep     func(string) bool
	Head     map[string]gitformat.TreeEntry // the kept files at the commit
	Dirs     map[string]bool                // the folders holding them
	Index    *gitindex.File                 // nil without an index file
	// Budget is how many directory entries the scan may read.
	Budget int

	seen                map[string]bool // files of Head found on disk
	modified, untracked []string
}

// Run walks the checkout with the ignore patterns of exclude, and returns
// the files of Head that differ or are missing, and the untracked files.
// A scan past its budget returns ErrBound, with what it found so far and
// none missing.
func (sc *Scan) Run(ctx context.Context, exclude []gitignore.Pattern) (modified, untracked []string, err error) {
	sc.seen = make(map[string]bool, len(sc.Head))
	err = sc.dir(ctx, "", nil, exclude)
	if err == nil {
		for p := range sc.Head {
			if !sc.seen[p] {
				sc.modified = append(sc.modified, p)
			}
		}
	}
	return sc.modified, sc.untracked, err
}

// dir scans the folder rel (parts) with the ignore patterns ps of its
// parents.
func (sc *Scan) dir(ctx context.Context, rel string, parts []string, ps []gitignore.Pattern) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	full := filepath.Join(sc.WorkTree, filepath.FromSlash(rel))
	entries, err := os.ReadDir(full)
	if err != nil {
		return nil // unreadable: its files count as deleted, none as untracked
	}
	if sc.Budget -= len(entries); sc.Budget < 0 {
		return ErrBound
	}
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			ps = append(slices.Clip(ps), ReadIgnoreFile(filepath.Join(full, e.Name()), parts)...)
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
			if !sc.Dirs[p] && m.Match(sub, true) {
				continue // ignored, and no tracked file lies under it
			}
			if err := sc.dir(ctx, p, sub, ps); err != nil {
				return err
			}
		case e.Type().IsRegular() && sc.Keep(p):
			te, tracked := sc.Head[p]
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
func (sc *Scan) differs(p, full string, te gitformat.TreeEntry) bool {
	if sc.Index != nil {
		if e, n := sc.Index.Lookup(p); n == 1 && e.Stage() == 0 && e.ID() == te.ID {
			fi, err := os.Lstat(full)
			if err != nil {
				return true
			}
			if sc.Index.StatClean(e, fi) {
				return false
			}
		}
	}
	b, err := os.ReadFile(full)
	return err != nil || gitformat.HashObject(plumbing.BlobObject, b) != te.ID
}

// ReadIgnoreFile reads the patterns of a .gitignore or exclude file that
// applies to the folder domain; a missing file has none.
func ReadIgnoreFile(name string, domain []string) []gitignore.Pattern {
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
