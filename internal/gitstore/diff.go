package gitstore

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
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
func (s *Store) diffTrees(ctx context.Context, prefix string, a, b plumbing.Hash, out *[]wiki.FileChange) error {
	if a == b || (isEmptyTree(a) && isEmptyTree(b)) {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ta, err := s.tree(a)
	if err != nil {
		return err
	}
	tb, err := s.tree(b)
	if err != nil {
		return err
	}
	i, j := 0, 0
	for i < len(ta.entries) || j < len(tb.entries) {
		var c int
		switch {
		case i == len(ta.entries):
			c = 1
		case j == len(tb.entries):
			c = -1
		default:
			ea, eb := ta.entries[i], tb.entries[j]
			c = gitformat.CompareEntries(ea.Name, ea.Mode, eb.Name, eb.Mode)
		}
		switch {
		case c < 0:
			if err := s.diffEntry(ctx, prefix, &ta.entries[i], nil, out); err != nil {
				return err
			}
			i++
		case c > 0:
			if err := s.diffEntry(ctx, prefix, nil, &tb.entries[j], out); err != nil {
				return err
			}
			j++
		default:
			ea, eb := &ta.entries[i], &tb.entries[j]
			i, j = i+1, j+1
			if ea.ID == eb.ID && gitformat.IsTreeMode(ea.Mode) == gitformat.IsTreeMode(eb.Mode) && gitformat.IsRegularMode(ea.Mode) == gitformat.IsRegularMode(eb.Mode) {
				continue // the same file or subtree
			}
			if err := s.diffEntry(ctx, prefix, ea, eb, out); err != nil {
				return err
			}
		}
	}
	return nil
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
