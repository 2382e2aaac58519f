package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/journal"
	"github.com/wikid/wikid/internal/gitstore/internal/objdir"
	"github.com/wikid/wikid/internal/wiki"
)

// Commit writes one commit with the changes on top of req.Parent and moves
// the branch HEAD points at to it. In a checkout it first puts the touched
// files in place and renames an index with their entries refreshed over the
// old one, so that the checkout never lags behind the branch (see the
// package documentation for why). It records the commit in a journal before
// it takes a lock, so that a process killed in the middle leaves nothing
// the next one cannot roll back, and first rolls back any such commit of a
// process that is gone. It returns the new commit id.
//
// Nothing is written, and an error returned, when: HEAD is detached
// (wiki.ErrDetached); HEAD points at another branch than req.Branch, or
// the branch is not at req.Parent (wiki.ErrHeadMoved);
// a touched file of the checkout differs from req.Parent on disk or in the
// index (code LOCAL_CHANGES); the request is malformed (INVALID_PARAMS,
// INVALID_PATH, NOT_FOUND for a delete of a missing file); the index lock
// is someone else's (code LOCKED, after Options.ForeignLockWait) or another
// wikid's that stays held past Options.LockTimeout (LOCKED too); the
// repository cannot be written (READ_ONLY: no permission, or a read-only
// file system); the context is done before the first object is written.
// A write that fails because the disk is full or the quota used up is
// NO_SPACE (see wikierr.FromOS), and changes nothing either.
//
// If the checkout cannot be updated, or the branch cannot be moved after it
// was (the branch moved under its lock: wiki.ErrHeadMoved; its lock is held:
// LOCKED; any other error), the index and the touched files are put back as
// they were and the error returned; only unreferenced objects remain. If
// putting them back fails too, the error says so.
func (s *Store) Commit(ctx context.Context, req wiki.CommitRequest) (id string, err error) {
	defer s.classify("commit", &err)
	if err := s.check(ctx); err != nil {
		return "", err
	}
	if err := checkRequest(&req); err != nil {
		return "", err
	}
	now := time.Now()
	stamp(&req.Author, now)
	stamp(&req.Committer, now)
	if req.Ref != "" {
		return s.commitSide(ctx, req)
	}

	s.write.Lock()
	defer s.write.Unlock()
	start := time.Now()
	s.sweep(start.Add(-holdFor))

	head, err := s.readHead()
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := checkHead(head, req.Branch, req.Parent); err != nil {
		return "", err
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
	setNewBlobs(req.Changes, changes)
	obj, err := s.buildObjects(parent, root, changes, &req)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if req.FastForward != "" {
		if err := s.fastForward(ctx, obj, parent, req.FastForward); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
	}

	// The journal goes first, before any lock or file is made, so that a
	// crash from here on is rolled back by the next process (see journal).
	// A crashed process's commit met here is rolled back now.
	s.recoverAll(ctx)
	j := &journal.Journal{Branch: head.Branch, Parent: req.Parent, Commit: obj.id.String()}
	if s.workTree != "" {
		j.Paths = journalPaths(changes)
	}
	// The branch's lock will hold the new commit, synced: its file is
	// written and synced now, with the journal, so that the two syncs go
	// to the disk together.
	var refTmp string
	if err := s.writeJournal(j, func() { refTmp = s.prepareRefLock(head.Branch, obj.id, j.Tag()) }); err != nil {
		if refTmp != "" {
			os.Remove(refTmp)
		}
		return "", fmt.Errorf("commit: %w", err)
	}
	s.tag = j.Tag()
	// What a landed commit leaves to remove (the old index, whose blocks
	// take a while to free) goes after it returns, and its journal last, so
	// that a crash meanwhile leaves the files to recovery.
	var retired []string
	defer func() {
		if refTmp != "" {
			os.Remove(refTmp)
		}
		s.tag = ""
		if len(retired) == 0 {
			s.removeJournal(j)
			return
		}
		s.retiring.Add(1)
		go func() {
			defer s.retiring.Done()
			for _, name := range retired {
				os.Remove(name)
			}
			s.removeJournal(j)
		}()
	}()
	s.crashPoint("journaled")

	// In a checkout the index lock comes first, as in `git commit`, and is
	// held to the end: it keeps git from changing the index, the worktree
	// or the branch HEAD points at until the commit is complete. It is only
	// a mutex here (holding the journal's name, which proves it ours): the
	// new index is renamed into place from its own temporary file, before
	// the branch moves.
	if s.workTree != "" {
		l, err := s.acquireLock(ctx, s.indexPath(), j.IndexLockContent(), false)
		if err != nil {
			return "", fmt.Errorf("commit: lock the index: %w", err)
		}
		defer l.release()
		s.crashPoint("index locked")
	}

	if head, err = s.readHead(); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if err := checkHead(head, req.Branch, req.Parent); err != nil {
		return "", err
	}
	var ix *gitindex.File
	if s.workTree != "" {
		if ix, err = gitindex.Read(s.indexPath(), s.indexIn); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
		if err := unwritableIndex(ix); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
		if err := s.checkFiles(changes, ix); err != nil {
			return "", err
		}
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}

	// In a checkout the objects are written while the files are put in
	// place; the new index, which names them, is renamed into place only
	// once they are all written.
	objects := func() error { return nil }
	if obj.commit != nil {
		done := make(chan error, 1)
		tag := s.tag
		go func() {
			err := s.writeObjects(changes, obj, tag)
			if err == nil {
				s.crashPoint("objects written")
			}
			done <- err
		}()
		var objErr error
		waited := false
		objects = func() error {
			if !waited {
				objErr, waited = <-done, true
			}
			return objErr
		}
		defer objects() // no object is written after Commit returns
	}
	var co *checkoutUpdate
	if s.workTree != "" {
		if co, err = s.updateCheckout(ix, parent, changes, objects); err != nil {
			return "", fmt.Errorf("commit: %w", err)
		}
	}
	if err := objects(); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	if testHookBeforeMoveRef != nil {
		testHookBeforeMoveRef()
	}
	entry := reflogEntry{who: req.Committer, message: gitformat.ReflogMessage(req.Message, parent.IsZero())}
	if err := s.moveRef(ctx, head.Branch, parent, obj.id, entry, refTmp); err != nil {
		if co != nil {
			if rerr := co.rollback(); rerr != nil {
				s.log.Warn("the checkout could not be put back after a failed commit", "err", rerr)
				return "", fmt.Errorf("commit: %w (and %w: %w)", err, errNotPutBack, rerr)
			}
		}
		return "", fmt.Errorf("commit: %w", err)
	}
	if co != nil {
		if old := co.done(); old != "" {
			retired = append(retired, old)
		}
	}
	s.crashPoint("ref moved")
	if obj.commit != nil {
		s.commits.Put(obj.id, &gitformat.Commit{Tree: obj.tree, Parents: commitParents(parent, req.Merged)})
	}
	s.log.Debug("commit", "id", obj.id.String(), "files", len(changes), "took", time.Since(start))
	return obj.id.String(), nil
}

// checkHead returns wiki.ErrDetached or wiki.ErrHeadMoved unless HEAD is
// on a branch at parent, and on branch unless that is "".
func checkHead(head wiki.Head, branch, parent string) error {
	if head.Detached {
		return wiki.ErrDetached
	}
	if branch != "" && head.Branch != branch {
		return fmt.Errorf("%w: HEAD points at %s, not %s", wiki.ErrHeadMoved, head.Branch, branch)
	}
	if head.Commit != parent {
		return fmt.Errorf("%w: %s is at %s, not %s", wiki.ErrHeadMoved, head.Branch,
			describeID(plumbing.NewHash(head.Commit)), describeID(plumbing.NewHash(parent)))
	}
	return nil
}

// journalPaths lists the files of a change for its journal.
func journalPaths(changes []*change) []journal.Path {
	out := make([]journal.Path, len(changes))
	for i, c := range changes {
		out[i].Path = c.path
		if c.hadOld {
			out[i].Old = c.old.ID.String()
		}
		if !c.delete {
			out[i].New = c.blob.String()
		}
	}
	return out
}

// testHookCrash, when not nil, is called at the named points of Commit
// (and of updateCheckout and moveRef). Only tests set it, to kill the
// process there.
var testHookCrash func(point string)

func (s *Store) crashPoint(point string) {
	if testHookCrash != nil {
		testHookCrash(point)
	}
}

// testHookBeforeMoveRef, when not nil, is called by Commit after the
// checkout was updated and before the branch is moved. Only tests set it.
var testHookBeforeMoveRef func()

// objectsDir is the repository's object folder.
func (s *Store) objectsDir() string { return filepath.Join(s.commonDir, "objects") }

// indexPath is the checkout's index file.
func (s *Store) indexPath() string { return filepath.Join(s.gitDir, "index") }

// commitObjects are the trees and the commit a change makes, built before
// anything is written.
type commitObjects struct {
	id, tree plumbing.Hash
	trees    []newTree
	commit   []byte
}

// buildObjects computes the trees on the touched paths and the commit,
// without writing them.
func (s *Store) buildObjects(parent, root plumbing.Hash, changes []*change, req *wiki.CommitRequest) (*commitObjects, error) {
	o := &commitObjects{tree: root}
	if len(changes) > 0 {
		var err error
		if o.tree, err = s.buildTree(root, 0, changes, &o.trees); err != nil {
			return nil, err
		}
	}
	if isEmptyTree(o.tree) {
		o.trees = append(o.trees, newTree{id: gitformat.EmptyTree})
		o.tree = gitformat.EmptyTree
	}
	o.commit = gitformat.EncodeCommit(o.tree, commitParents(parent, req.Merged), gitformat.Signature(req.Author),
		gitformat.Signature(req.Committer), req.Message)
	o.id = gitformat.HashObject(plumbing.CommitObject, o.commit)
	return o, nil
}

// writeObjects writes the new blobs, the trees and the commit, as loose
// objects, their temporary files named with tag (see journal).
func (s *Store) writeObjects(changes []*change, o *commitObjects, tag string) error {
	for _, c := range changes {
		if c.delete || (c.hadOld && c.old.ID == c.blob) {
			continue
		}
		if err := objdir.WriteLoose(s.objectsDir(), plumbing.BlobObject, c.blob, c.content, tag); err != nil {
			return err
		}
		s.written.Put(c.blob, bytes.Clone(c.content))
	}
	for _, t := range o.trees {
		if err := objdir.WriteLoose(s.objectsDir(), plumbing.TreeObject, t.id, t.content, tag); err != nil {
			return err
		}
		if t.entries != nil {
			s.trees.Put(t.id, &tree{entries: t.entries})
		}
	}
	return objdir.WriteLoose(s.objectsDir(), plumbing.CommitObject, o.id, o.commit, tag)
}

// commitParents lists the parents of a commit on parent (zero: none) that
// merges the commits merged.
func commitParents(parent plumbing.Hash, merged []string) []plumbing.Hash {
	var parents []plumbing.Hash
	if !parent.IsZero() {
		parents = append(parents, parent)
	}
	for _, id := range merged {
		parents = append(parents, plumbing.NewHash(id))
	}
	return parents
}

// setNewBlobs sets NewBlob of every change to write to its blob id, for the
// caller, which so never hashes the content again.
func setNewBlobs(req []wiki.FileChange, changes []*change) {
	ids := make(map[string]plumbing.Hash, len(changes))
	for _, c := range changes {
		if !c.delete {
			ids[c.path] = c.blob
		}
	}
	for i := range req {
		if id, ok := ids[req[i].Path]; ok {
			req[i].NewBlob = id.String()
		}
	}
}

// fastForward turns the objects of a change into a move to the existing
// commit target: the tree they give must be target's, and parent an
// ancestor of target. Nothing is written then: every object the move
// reaches is target's.
func (s *Store) fastForward(ctx context.Context, obj *commitObjects, parent plumbing.Hash, target string) error {
	id := plumbing.NewHash(target)
	c, err := s.commit(id)
	if err != nil {
		return fmt.Errorf("fast-forward to %s: %w", describeID(id), err)
	}
	if c.Tree != obj.tree {
		return fmt.Errorf("fast-forward to %s: the changes give tree %s, not the commit's %s", describeID(id), obj.tree, c.Tree)
	}
	if !parent.IsZero() {
		ok, err := s.IsAncestor(ctx, parent.String(), target)
		if err != nil {
			return fmt.Errorf("fast-forward to %s: %w", describeID(id), err)
		}
		if !ok {
			return fmt.Errorf("fast-forward to %s: %s is not its ancestor", describeID(id), describeID(parent))
		}
	}
	obj.id, obj.commit, obj.trees = id, nil, nil
	return nil
}
