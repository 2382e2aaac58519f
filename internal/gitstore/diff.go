package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// Changes lists the regular files that differ between two commits ("" is
// the empty tree), sorted by path, with OldBlob and NewBlob filled in and
// Content left nil. Subtrees with equal ids are skipped without being read.
// A rename is a delete and an add. It returns an error wrapping
// wiki.ErrNotFound for an unknown commit.
func (s *Store) Changes(ctx context.Context, from, to string) ([]wiki.FileChange, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	a, err := s.rootTree(from)
	if err != nil {
		return nil, fmt.Errorf("changes from %s: %w", from, err)
	}
	b, err := s.rootTree(to)
	if err != nil {
		return nil, fmt.Errorf("changes to %s: %w", to, err)
	}
	var out []wiki.FileChange
	if err := s.diffTrees(ctx, "", a, b, &out); err != nil {
		return nil, fmt.Errorf("changes %s..%s: %w", from, to, err)
	}
	slices.SortFunc(out, func(x, y wiki.FileChange) int { return strings.Compare(x.Path, y.Path) })
	return out, nil
}

// diffTrees appends the file changes between trees a and b under prefix.
// It walks both trees' bytes side by side: an entry the same in both (its
// mode, name and id) is passed over without being decoded, so a folder of
// thousands of notes where one changed costs a comparison of its bytes.
func (s *Store) diffTrees(ctx context.Context, prefix string, a, b plumbing.Hash, out *[]wiki.FileChange) error {
	if a == b || (isEmptyTree(a) && isEmptyTree(b)) {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ra, err := s.rawTree(a)
	if err != nil {
		return err
	}
	rb, err := s.rawTree(b)
	if err != nil {
		return err
	}
	for len(ra) > 0 || len(rb) > 0 {
		if n := bytes.IndexByte(ra, 0) + 21; n > 21 && n <= len(ra) && n <= len(rb) && bytes.Equal(ra[:n], rb[:n]) {
			ra, rb = ra[n:], rb[n:]
			continue
		}
		ea, na, err := decodeEntry(ra, a)
		if err != nil {
			return err
		}
		eb, nb, err := decodeEntry(rb, b)
		if err != nil {
			return err
		}
		var c int
		switch {
		case ea == nil:
			c = 1
		case eb == nil:
			c = -1
		default:
			c = gitformat.CompareEntries(ea.Name, ea.Mode, eb.Name, eb.Mode)
		}
		switch {
		case c < 0:
			eb, nb = nil, 0
		case c > 0:
			ea, na = nil, 0
		case ea.ID == eb.ID && gitformat.IsTreeMode(ea.Mode) == gitformat.IsTreeMode(eb.Mode) && gitformat.IsRegularMode(ea.Mode) == gitformat.IsRegularMode(eb.Mode):
			ea, eb = nil, nil // the same file or subtree
		}
		ra, rb = ra[na:], rb[nb:]
		if ea != nil || eb != nil {
			if err := s.diffEntry(ctx, prefix, ea, eb, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// rawTree returns the bytes of tree id, shared: the zero id and the empty
// tree's are empty.
func (s *Store) rawTree(id plumbing.Hash) ([]byte, error) {
	if isEmptyTree(id) {
		return nil, nil
	}
	typ, b, err := s.read(id, true)
	if err != nil {
		return nil, err
	}
	if typ != plumbing.TreeObject {
		return nil, fmt.Errorf("object %s is a %s, not a tree", id, typ)
	}
	return b, nil
}

// decodeEntry decodes the first entry of rest, what is left of tree id, and
// returns its length; nil for no entry.
func decodeEntry(rest []byte, id plumbing.Hash) (*gitformat.TreeEntry, int, error) {
	if len(rest) == 0 {
		return nil, 0, nil
	}
	name, mode, eid, n, err := gitformat.NextEntry(rest)
	if err != nil {
		return nil, 0, fmt.Errorf("tree %s: %w", id, err)
	}
	e := &gitformat.TreeEntry{Name: string(name), Mode: mode}
	copy(e.ID[:], eid)
	return e, n, nil
}

// diffEntry compares one entry present in a, b or both (same name and kind).
func (s *Store) diffEntry(ctx context.Context, prefix string, ea, eb *gitformat.TreeEntry, out *[]wiki.FileChange) error {
	var name string
	var treeA, treeB plumbing.Hash
	var blobA, blobB string
	if ea != nil {
		name = ea.Name
		switch {
		case gitformat.IsTreeMode(ea.Mode):
			treeA = emptyTreeOr(ea.ID)
		case gitformat.IsRegularMode(ea.Mode):
			blobA = ea.ID.String()
		}
	}
	if eb != nil {
		name = eb.Name
		switch {
		case gitformat.IsTreeMode(eb.Mode):
			treeB = emptyTreeOr(eb.ID)
		case gitformat.IsRegularMode(eb.Mode):
			blobB = eb.ID.String()
		}
	}
	p := path.Join(prefix, name)
	if !treeA.IsZero() || !treeB.IsZero() {
		return s.diffTrees(ctx, p, emptyTreeOr(treeA), emptyTreeOr(treeB), out)
	}
	if blobA != blobB {
		*out = append(*out, wiki.FileChange{Path: p, Delete: blobB == "", OldBlob: blobA, NewBlob: blobB})
	}
	return nil
}

func isEmptyTree(id plumbing.Hash) bool { return id.IsZero() || id == gitformat.EmptyTree }

func emptyTreeOr(id plumbing.Hash) plumbing.Hash {
	if id.IsZero() {
		return gitformat.EmptyTree
	}
	return id
}
