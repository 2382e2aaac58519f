package gitstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/wiki"
)

// Commit writes one commit with the changes on top of req.Parent and moves
// the branch HEAD points at to it, then, in a checkout, puts the touched
// files in place and refreshes their index entries. It returns the new
// commit id.
//
// Nothing is written, and an error returned, when: HEAD is detached
// (wiki.ErrDetached); the branch is not at req.Parent, before or under its
// lock (wiki.ErrHeadMoved); a touched file of the checkout differs from
// req.Parent on disk or in the index (code LOCAL_CHANGES); the request is
// malformed (INVALID_PARAMS, INVALID_PATH, NOT_FOUND for a delete of a
// missing file); a lock stays held by another process past the timeout
// (ErrLocked); the context is done before the first object is written.
//
// If the commit landed but the checkout could not be refreshed, Commit
// returns the new id together with an error wrapping ErrNotRefreshed.
func (s *Store) Commit(ctx context.Context, req wiki.CommitRequest) (string, error) {
	if err := s.check(ctx); err != nil {
		return "", err
	}
	if err := checkRequest(&req); err != nil {
		return "", err
	}
	now := time.Now()
	stamp(&req.Author, now)
	stamp(&req.Committer, now)

	s.write.Lock()
	defer s.write.Unlock()
	start := time.Now()

	// In a checkout the index lock comes first, as in `git commit`: it keeps
	// git from changing the index, the worktree or the branch HEAD points at
	// until the commit is complete.
	var indexLock *lockFile
	if s.workTree != "" {
		l, err := acquireLock(ctx, s.indexPath(), s.lockTimeout)
		if err != nil {
			return "", fmt.Errorf("commit: lock the index: %w", err)
		}
		indexLock = l
		defer func() {
			if indexLock != nil {
				indexLock.release()
			}
		}()
	}

	head, err := s.readHead()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if head.Detached {
		return "", wiki.ErrDetached
	}
	if head.Commit != req.Parent {
		return "", fmt.Errorf("%w: %s is at %s, not %s", wiki.ErrHeadMoved, head.Branch,
			describeID(plumbing.NewHash(head.Commit)), describeID(plumbing.NewHash(req.Parent)))
	}
	parent, _ := commitID(req.Parent)
	root, err := s.rootTree(req.Parent)
	if err != nil {
		return "", fmt.Errorf("commit: read parent: %w", err)
	}
	changes, err := s.planChanges(root, req.Changes)
	if err != nil {
		return "", err
	}

	var ix *index
	if s.workTree != "" {
		if ix, err = readIndex(s.indexPath(), s.indexIn); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
		if err := ix.unsupported(); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
		if err := s.checkFiles(changes, ix); err != nil {
			return "", err
		}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}

	id, tree, err := s.writeObjects(parent, root, changes, &req)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	var wt *worktreeWrite
	if s.workTree != "" {
		if wt, err = s.stageWorktree(changes); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
	}
	entry := reflogEntry{who: req.Committer, message: reflogMessage(req.Message, parent.IsZero())}
	if err := s.moveRef(ctx, head.Branch, parent, id, entry); err != nil {
		if wt != nil {
			wt.abort()
		}
		return "", fmt.Errorf("commit: %w", err)
	}
	s.commits.put(id, &commitInfo{tree: tree, parents: parentList(parent)})
	if wt == nil {
		s.log.Debug("commit", "id", id.String(), "files", len(changes), "took", time.Since(start))
		return id.String(), nil
	}

	// The commit is in the branch: from here on errors leave it there.
	done, werr := wt.apply()
	ierr := s.refreshIndex(indexLock, ix, parent, done)
	indexLock = nil
	if err := errors.Join(werr, ierr); err != nil {
		s.log.Warn("commit landed but the checkout was not refreshed", "id", id.String(), "err", err)
		return id.String(), fmt.Errorf("%w: commit %s: %w", ErrNotRefreshed, id, err)
	}
	s.log.Debug("commit", "id", id.String(), "files", len(changes), "took", time.Since(start))
	return id.String(), nil
}

// indexPath is the checkout's index file.
func (s *Store) indexPath() string { return filepath.Join(s.gitDir, "index") }

// writeObjects writes the new blobs, the trees on the touched paths and the
// commit, and returns the ids of the commit and of its tree.
func (s *Store) writeObjects(parent, root plumbing.Hash, changes []*change, req *wiki.CommitRequest) (id, tree plumbing.Hash, err error) {
	for _, c := range changes {
		if c.delete || (c.hadOld && c.old.id == c.blob) {
			continue
		}
		if _, err := s.writeObject(plumbing.BlobObject, c.content); err != nil {
			return id, tree, err
		}
	}
	tree = root
	if len(changes) > 0 {
		if tree, err = s.buildTree(root, 0, changes); err != nil {
			return id, tree, err
		}
	}
	if isEmptyTree(tree) {
		if _, err := s.writeObject(plumbing.TreeObject, nil); err != nil {
			return id, tree, err
		}
		tree = emptyTree
	}
	id, err = s.writeObject(plumbing.CommitObject, encodeCommit(tree, parent, req))
	return id, tree, err
}

func parentList(parent plumbing.Hash) []plumbing.Hash {
	if parent.IsZero() {
		return nil
	}
	return []plumbing.Hash{parent}
}

// refreshIndex brings the index entries of the updated paths up to date and
// renames the lock over the index. A checkout without an index gets one only
// on its first commit, whose files are the whole tree; otherwise the index
// stays missing (git status already shows every file as untracked there).
func (s *Store) refreshIndex(lock *lockFile, ix *index, parent plumbing.Hash, done []written) error {
	if ix == nil && !parent.IsZero() {
		lock.release()
		return nil
	}
	if ix == nil {
		ix = &index{version: 2}
	}
	skip := make(map[string]bool, len(done))
	for _, w := range done {
		skip[w.c.path] = true
	}
	ix.smudgeRacy(s.workTree, skip)
	s.indexOut = ix.rewrite(done, s.indexOut)
	if ix.buf != nil {
		s.indexIn = ix.buf
	}
	if _, err := lock.f.Write(s.indexOut); err != nil {
		lock.release()
		return fmt.Errorf("write index: %w", err)
	}
	if err := lock.commit(); err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}
