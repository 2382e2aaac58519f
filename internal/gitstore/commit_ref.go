package gitstore

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/tempfile"
	"github.com/wikid/wikid/internal/wiki"
)

// moveRef moves branch ref, the one HEAD points at, from old to new with
// git's protocol: create HEAD.lock, as git does for the reflog of HEAD (so
// that a HEAD.lock of someone else's stops wikid as it stops git), then
// <ref>.lock exclusively, holding the new value (synced), check that the ref
// (loose, else packed) still points at old (zero: does not exist), append
// the reflog lines, rename the lock over the ref. prepared, when not "",
// is a temporary file next to the ref that holds the new value, synced
// (see prepareRefLock), for the lock. It returns an error wrapping
// wiki.ErrHeadMoved, after removing its lock, if the ref moved, and one of
// code LOCKED if another process holds the lock too long.
func (s *Store) moveRef(ctx context.Context, ref string, old, new plumbing.Hash, entry reflogEntry, prepared string) error {
	if err := gitformat.CheckRefName(ref); err != nil {
		return err
	}
	target := filepath.Join(s.commonDir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	headLock, err := s.acquireLock(ctx, s.headPath(), []byte(new.String()+"\n"), false)
	if err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	defer headLock.release()
	// Under HEAD.lock nobody checks out another branch: the one checked out
	// since HEAD was read would get the commit.
	if h, err := s.readHead(); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	} else if h.Branch != ref {
		return fmt.Errorf("%w: HEAD points at %s now, not %s", wiki.ErrHeadMoved, cmp.Or(h.Branch, "a commit (detached)"), ref)
	}
	lock, err := s.acquireLockFrom(ctx, target, []byte(new.String()+"\n"), true, prepared)
	if err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	s.crashPoint("ref locked")
	_, cur, _, err := s.readRef(ref)
	if err != nil {
		lock.release()
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if cur != old {
		lock.release()
		return fmt.Errorf("%w: %s is at %s, not %s", wiki.ErrHeadMoved, ref, describeID(cur), describeID(old))
	}
	entry.old, entry.new = old, new
	if err := s.appendReflogs(ref, entry); err != nil {
		lock.release()
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if err := lock.commit(); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	return nil
}

// prepareRefLock writes the content of the lock of ref for a move to new
// (see moveRef) to a temporary file next to it, named with tag (see
// journal), and syncs it; it returns the file, "" when it could not be
// written: moveRef then writes its own and reports why that fails.
func (s *Store) prepareRefLock(ref string, new plumbing.Hash, tag string) string {
	if gitformat.CheckRefName(ref) != nil {
		return ""
	}
	dir := filepath.Dir(filepath.Join(s.commonDir, filepath.FromSlash(ref)))
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return ""
	}
	tmp, err := tempfile.Write(dir, tag, []byte(new.String()+"\n"), 0o666, true)
	if err != nil {
		return ""
	}
	return tmp
}

// describeID names an id in an error message.
func describeID(id plumbing.Hash) string {
	if id.IsZero() {
		return "no commit"
	}
	return id.String()
}

// headPath is HEAD's file (this checkout's, in a linked worktree).
func (s *Store) headPath() string { return filepath.Join(s.gitDir, "HEAD") }
