package gitstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// Snapshot returns the tree of a commit; "" is the empty tree. It returns an
// error wrapping wiki.ErrNotFound for an unknown commit or an object that is
// not a commit.
func (s *Store) Snapshot(ctx context.Context, commit string) (wiki.Snapshot, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	root, err := s.rootTree(commit)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", commit, err)
	}
	return &snapshot{s: s, commit: commit, root: root}, nil
}

// snapshot is the tree of one commit. Its trees come from the store's cache,
// so it is cheap to take and safe for concurrent use.
type snapshot struct {
	s      *Store
	commit string
	root   plumbing.Hash
}

var _ wiki.Snapshot = (*snapshot)(nil)

// Commit returns the commit id, or "" for the empty tree.
func (sn *snapshot) Commit() string { return sn.commit }

// Stat returns the regular file at path, or an error wrapping
// wiki.ErrNotFound (also for a folder or a symlink), or one of code
// INVALID_PATH for a malformed path.
func (sn *snapshot) Stat(ctx context.Context, file string) (wiki.File, error) {
	e, err := sn.file(ctx, file)
	if err != nil {
		return wiki.File{}, err
	}
	sizes, err := sn.s.blobSizes([]plumbing.Hash{e.ID})
	if err != nil {
		return wiki.File{}, fmt.Errorf("stat %q: %w", file, err)
	}
	return wiki.File{Path: file, Blob: e.ID.String(), Size: sizes[0]}, nil
}

// Read returns the regular file at path and its content, or the errors of
// Stat.
func (sn *snapshot) Read(ctx context.Context, file string) (wiki.File, []byte, error) {
	e, err := sn.file(ctx, file)
	if err != nil {
		return wiki.File{}, nil, err
	}
	typ, b, err := sn.s.readObject(e.ID)
	if err != nil {
		return wiki.File{}, nil, fmt.Errorf("read %q: %w", file, err)
	}
	if typ != plumbing.BlobObject {
		return wiki.File{}, nil, fmt.Errorf("read %q: object %s is a %s", file, e.ID, typ)
	}
	sn.s.sizes.Put(e.ID, int64(len(b)))
	return wiki.File{Path: file, Blob: e.ID.String(), Size: int64(len(b))}, b, nil
}

// file returns the tree entry of a regular file.
func (sn *snapshot) file(ctx context.Context, file string) (gitformat.TreeEntry, error) {
	if err := sn.s.check(ctx); err != nil {
		return gitformat.TreeEntry{}, err
	}
	parts, err := splitPath(file)
	if err != nil {
		return gitformat.TreeEntry{}, err
	}
	e, ok, err := sn.s.lookup(sn.root, parts)
	if err != nil {
		return gitformat.TreeEntry{}, fmt.Errorf("stat %q: %w", file, err)
	}
	if !ok || !gitformat.IsRegularMode(e.Mode) {
		return gitformat.TreeEntry{}, wiki.Errorf(wiki.CodeNotFound, "%q does not exist in %s", file, sn.name())
	}
	return e, nil
}

func (sn *snapshot) name() string {
	if sn.commit == "" {
		return "the empty tree"
	}
	return "commit " + sn.commit
}

// Files lists the regular files under dir ("" for the root), recursively,
// sorted by path. A folder that does not exist has no files. It returns an
// error of code INVALID_PATH for a malformed folder path.
func (sn *snapshot) Files(ctx context.Context, dir string) ([]wiki.File, error) {
	if err := sn.s.check(ctx); err != nil {
		return nil, err
	}
	parts, err := splitDir(dir)
	if err != nil {
		return nil, err
	}
	e, ok, err := sn.s.lookup(sn.root, parts)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, err)
	}
	if !ok || !gitformat.IsTreeMode(e.Mode) {
		return []wiki.File{}, nil
	}
	var files []wiki.File
	var ids []plumbing.Hash
	err = sn.s.walk(e.ID, strings.Join(parts, "/"), func(p string, e gitformat.TreeEntry) {
		files = append(files, wiki.File{Path: p, Blob: e.ID.String()})
		ids = append(ids, e.ID)
	})
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, err)
	}
	sizes, err := sn.s.blobSizes(ids)
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", dir, err)
	}
	for i := range files {
		files[i].Size = sizes[i]
	}
	slices.SortFunc(files, func(a, b wiki.File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// walk calls fn for every regular file under tree id, in tree order, with
// its path joined to prefix.
func (s *Store) walk(id plumbing.Hash, prefix string, fn func(string, gitformat.TreeEntry)) error {
	t, err := s.tree(id)
	if err != nil {
		return err
	}
	if prefix != "" {
		prefix += "/"
	}
	for _, e := range t.entries {
		p := prefix + e.Name
		switch {
		case gitformat.IsTreeMode(e.Mode):
			if err := s.walk(e.ID, p, fn); err != nil {
				return err
			}
		case gitformat.IsRegularMode(e.Mode):
			fn(p, e)
		}
	}
	return nil
}
