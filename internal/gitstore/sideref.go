package gitstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/refdir"
	"github.com/wikid/wikid/internal/wiki"
)

// commitSide writes the commit of req on top of req.Parent and moves
// req.Ref, a side ref (a proposal's), from req.RefFrom to it. HEAD, the
// checkout and its index are neither read nor changed, so no journal is
// needed: the objects are written first, the ref moved last, under its lock.
func (s *Store) commitSide(ctx context.Context, req wiki.CommitRequest) (string, error) {
	from, err := commitID(req.RefFrom)
	if err = cmp.Or(err, s.checkSideRef(req.Ref)); err != nil {
		return "", err
	}
	if req.FastForward != "" || len(req.Merged) > 0 {
		return "", wiki.Errorf(wiki.CodeInvalidParams, "a commit to %s is neither a fast-forward nor a merge", req.Ref)
	}
	s.write.Lock()
	defer s.write.Unlock()
	parent, _ := commitID(req.Parent)
	root, err := s.rootTree(req.Parent)
	var changes []*change
	if err == nil {
		changes, err = s.planChanges(root, req.Changes)
	}
	var obj *commitObjects
	if err == nil {
		setNewBlobs(req.Changes, changes)
		obj, err = s.buildObjects(parent, root, changes, &req)
	}
	if err = cmp.Or(err, ctx.Err()); err == nil {
		err = s.writeObjects(changes, obj, "")
	}
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", req.Ref, err)
	}
	entry := reflogEntry{who: req.Committer, message: gitformat.ReflogMessage(req.Message, parent.IsZero())}
	if err := s.moveSideRef(ctx, req.Ref, from, obj.id, &entry); err != nil {
		return "", err
	}
	s.commits.Put(obj.id, &gitformat.Commit{Tree: obj.tree, Parents: commitParents(parent, nil)})
	return obj.id.String(), nil
}

// SetRef points ref at to ("" deletes it) if it points at from now ("":
// absent), with git's lock protocol, else wraps wiki.ErrHeadMoved; HEAD's
// branch is INVALID_PARAMS, another process's lock LOCKED.
func (s *Store) SetRef(ctx context.Context, ref, from, to string) (err error) {
	defer s.classify("set ref", &err)
	f, err1 := commitID(from)
	t, err2 := commitID(to)
	if err := cmp.Or(s.check(ctx), err1, err2, s.checkSideRef(ref)); err != nil {
		return err
	}
	s.write.Lock()
	defer s.write.Unlock()
	return s.moveSideRef(ctx, ref, f, t, &reflogEntry{who: wiki.Signature{Name: "wikid", Email: "wikid@localhost"}, message: "wikid: set ref"})
}

// checkSideRef refuses a ref that is not a valid name under refs/, or that
// is the branch HEAD points at.
func (s *Store) checkSideRef(ref string) error {
	if !strings.HasPrefix(ref, "refs/") || gitformat.CheckRefName(ref) != nil {
		return wiki.Errorf(wiki.CodeInvalidParams, "%q is not a ref name under refs/", ref)
	}
	if h, err := s.readHead(); err == nil && h.Branch == ref {
		return wiki.Errorf(wiki.CodeInvalidParams, "%s is the branch checked out; it moves only with a commit", ref)
	}
	return nil
}

// moveSideRef moves ref from old to new (zero: delete, from packed-refs
// too, as git does) under <ref>.lock if it still points at old.
func (s *Store) moveSideRef(ctx context.Context, ref string, old, new plumbing.Hash, entry *reflogEntry) error {
	target := filepath.Join(s.commonDir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	lock, err := s.acquireLock(ctx, target, []byte(new.String()+"\n"), !new.IsZero())
	if err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	fail := func(err error) error {
		lock.release()
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if _, cur, _, err := s.readRef(ref); err != nil {
		return fail(err)
	} else if cur != old {
		return fail(fmt.Errorf("%w: %s is at %s, not %s", wiki.ErrHeadMoved, ref, describeID(cur), describeID(old)))
	}
	if new.IsZero() {
		defer lock.release()
		os.Remove(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)))
		if err := s.dropPacked(ctx, ref); err != nil {
			return fmt.Errorf("delete %s: %w", ref, err)
		}
		if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", ref, err)
		}
		return nil
	}
	line := gitformat.ReflogLine(old, new, gitformat.Signature(entry.who), entry.message)
	if err := appendLog(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)), false, line); err != nil {
		return fail(err)
	}
	if err := lock.commit(); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	return nil
}

// dropPacked removes ref's line (and the peeled line after it) from
// packed-refs, under packed-refs.lock; a file without it is left alone.
func (s *Store) dropPacked(ctx context.Context, ref string) error {
	path := filepath.Join(s.commonDir, "packed-refs")
	b, _ := os.ReadFile(path) // unreadable, it failed the ref's read before
	out, found := refdir.DropPacked(b, ref)
	if !found {
		return nil
	}
	lock, err := s.acquireLock(ctx, path, out, true)
	if err != nil {
		return err
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, b) {
		lock.release()
		return errors.New("packed-refs changed while it was rewritten")
	}
	return lock.commit()
}

// Refs returns the refs under prefix, loose and packed, with the commit
// each points at.
func (s *Store) Refs(ctx context.Context, prefix string) (map[string]string, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	return refdir.Under(s.commonDir, &s.packed, prefix)
}
