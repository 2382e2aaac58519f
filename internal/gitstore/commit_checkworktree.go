package gitstore

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/wiki"
)

// CheckWorktree reports, for a checkout, whether any of the changed files
// (repository-relative) differs from its content at commit parent, as
// Commit checks it: modified, deleted, untracked where parent has none
// (unless it holds already what the change writes), under a folder that is a file or
// a symlink on disk, or with staged changes in the index. Such files fail
// with an error of code LOCAL_CHANGES naming them. A bare repository always
// passes. It returns an error wrapping wiki.ErrNotFound for an unknown
// parent and one of code INVALID_PATH for a malformed path.
func (s *Store) CheckWorktree(ctx context.Context, parent string, files []wiki.FileChange) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	if s.workTree == "" {
		return nil
	}
	root, err := s.rootTree(parent)
	if err != nil {
		return fmt.Errorf("check worktree: %w", err)
	}
	changes := make([]*change, 0, len(files))
	for _, f := range files {
		parts, err := splitPath(f.Path)
		if err != nil {
			return err
		}
		c := &change{path: f.Path, parts: parts, delete: f.Delete, content: f.Content}
		if !f.Delete {
			c.blob = gitformat.HashObject(plumbing.BlobObject, f.Content)
		}
		old, ok, err := s.lookup(root, parts)
		if err != nil {
			return fmt.Errorf("check worktree: %w", err)
		}
		if ok && gitformat.IsRegularMode(old.Mode) {
			c.old, c.hadOld = old, true
		}
		changes = append(changes, c)
	}
	ix, err := gitindex.Read(s.indexPath(), nil)
	if err != nil {
		return fmt.Errorf("check worktree: %w", err)
	}
	return s.checkFiles(changes, ix)
}
