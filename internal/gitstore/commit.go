package gitstore

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/wiki"
)

// Commit writes one commit with the changes on top of req.Parent and moves
// the branch HEAD points at to it. In a checkout it first puts the touched
// files in place and renames an index with their entries refreshed over the
// old one, so that the checkout never lags behind the branch (see the
// package documentation for why). It returns the new commit id.
//
// Nothing is written, and an error returned, when: HEAD is detached
// (wiki.ErrDetached); the branch is not at req.Parent (wiki.ErrHeadMoved);
// a touched file of the checkout differs from req.Parent on disk or in the
// index (code LOCAL_CHANGES); the request is malformed (INVALID_PARAMS,
// INVALID_PATH, NOT_FOUND for a delete of a missing file); the index lock
// stays held by another process past the timeout (ErrLocked); the context is
// done before the first object is written.
//
// If the checkout cannot be updated, or the branch cannot be moved after it
// was (the branch moved under its lock: wiki.ErrHeadMoved; its lock stays
// held: ErrLocked; any other error), the index and the touched files are put
// back as they were and the error returned; only unreferenced objects
// remain. If putting them back fails too, the error says so.
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

	// In a checkout the index lock comes first, as in `git commit`, and is
	// held to the end: it keeps git from changing the index, the worktree
	// or the branch HEAD points at until the commit is complete. It is only
	// a mutex here: the new index is renamed into place from its own
	// temporary file, before the branch moves.
	if s.workTree != "" {
		l, err := acquireLock(ctx, s.indexPath(), s.lockTimeout)
		if err != nil {
			return "", fmt.Errorf("commit: lock the index: %w", err)
		}
		defer l.release()
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
	var co *checkoutUpdate
	if s.workTree != "" {
		if co, err = s.updateCheckout(ix, parent, changes); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
	}
	if testHookBeforeMoveRef != nil {
		testHookBeforeMoveRef()
	}
	entry := reflogEntry{who: req.Committer, message: reflogMessage(req.Message, parent.IsZero())}
	if err := s.moveRef(ctx, head.Branch, parent, id, entry); err != nil {
		if co != nil {
			if rerr := co.rollback(); rerr != nil {
				s.log.Warn("the checkout could not be put back after a failed commit", "err", rerr)
				return "", fmt.Errorf("commit: %w (and the checkout could not be put back: %w)", err, rerr)
			}
		}
		return "", fmt.Errorf("commit: %w", err)
	}
	s.commits.put(id, &commitInfo{tree: tree, parents: parentList(parent)})
	s.log.Debug("commit", "id", id.String(), "files", len(changes), "took", time.Since(start))
	return id.String(), nil
}

// testHookBeforeMoveRef, when not nil, is called by Commit after the
// checkout was updated and before the branch is moved. Only tests set it.
var testHookBeforeMoveRef func()

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
