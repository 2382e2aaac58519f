package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// A side ref is a ref other than the branch HEAD points at that wikid
// commits to: a proposal's (refs/wikid/proposals/<id>). Its commits are
// written like the branch's (the same trees, blobs and commit objects), but
// HEAD, the checkout and its index are neither read nor changed, so no
// journal is needed: the objects are written first, and the ref moves last,
// under its lock, from the value the caller read.

// commitSide writes the commit of req on top of req.Parent and moves
// req.Ref from req.RefFrom to it. See Store.Commit and wiki.CommitRequest.
func (s *Store) commitSide(ctx context.Context, req wiki.CommitRequest) (string, error) {
	if req.FastForward != "" || len(req.Merged) > 0 {
		return "", wiki.Errorf(wiki.CodeInvalidParams, "a commit to %s is neither a fast-forward nor a merge", req.Ref)
	}
	from, err := commitID(req.RefFrom)
	if err != nil {
		return "", wiki.Errorf(wiki.CodeInvalidParams, "%q is not a full commit id", req.RefFrom)
	}
	if err := s.checkSideRef(req.Ref); err != nil {
		return "", err
	}
	s.write.Lock()
	defer s.write.Unlock()
	parent, _ := commitID(req.Parent)
	root, err := s.rootTree(req.Parent)
	if err != nil {
		return "", fmt.Errorf("commit to %s: read parent: %w", req.Ref, err)
	}
	changes, err := s.planChanges(root, req.Changes)
	if err != nil {
		return "", err
	}
	setNewBlobs(req.Changes, changes)
	obj, err := s.buildObjects(parent, root, changes, &req)
	if err != nil {
		return "", fmt.Errorf("commit to %s: %w", req.Ref, err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := s.writeObjects(changes, obj, ""); err != nil {
		return "", fmt.Errorf("commit to %s: %w", req.Ref, err)
	}
	entry := reflogEntry{who: req.Committer, message: gitformat.ReflogMessage(req.Message, parent.IsZero())}
	if err := s.moveSideRef(ctx, req.Ref, from, obj.id, &entry); err != nil {
		return "", err
	}
	s.commits.Put(obj.id, &gitformat.Commit{Tree: obj.tree, Parents: commitParents(parent, nil)})
	return obj.id.String(), nil
}

// SetRef points ref at to ("" deletes it) if it points at from now (""
// when it must not exist), with git's lock protocol; the ref's reflog, when
// it has one, records the move. It refuses the branch HEAD points at
// (INVALID_PARAMS): that moves only with a commit. A ref that moved is an
// error wrapping wiki.ErrHeadMoved; a lock held by another process LOCKED.
func (s *Store) SetRef(ctx context.Context, ref, from, to string) (err error) {
	defer s.classify("set ref", &err)
	if err := s.check(ctx); err != nil {
		return err
	}
	f, err1 := commitID(from)
	t, err2 := commitID(to)
	if err1 != nil || err2 != nil {
		return wiki.Errorf(wiki.CodeInvalidParams, "set %s: %q or %q is not a full commit id", ref, from, to)
	}
	if err := s.checkSideRef(ref); err != nil {
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

// moveSideRef moves ref from old to new (zero: delete) under <ref>.lock,
// after checking that it still points at old (zero: does not exist). A
// deleted ref leaves packed-refs too, rewritten under its own lock as git
// does, and its reflog is removed.
func (s *Store) moveSideRef(ctx context.Context, ref string, old, new plumbing.Hash, entry *reflogEntry) error {
	target := filepath.Join(s.commonDir, filepath.FromSlash(ref))
	if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	var content []byte
	if !new.IsZero() {
		content = []byte(new.String() + "\n")
	}
	lock, err := s.acquireLock(ctx, target, content, !new.IsZero())
	if err != nil {
		return fmt.Errorf("update %s: %w", ref, err)
	}
	_, cur, _, err := s.readRef(ref)
	if err != nil {
		lock.release()
		return fmt.Errorf("update %s: %w", ref, err)
	}
	if cur != old {
		lock.release()
		return fmt.Errorf("%w: %s is at %s, not %s", wiki.ErrHeadMoved, ref, describeID(cur), describeID(old))
	}
	if new.IsZero() {
		defer lock.release()
		if err := s.dropPacked(ctx, ref); err != nil {
			return fmt.Errorf("delete %s: %w", ref, err)
		}
		if err := os.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete %s: %w", ref, err)
		}
		os.Remove(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)))
		return nil
	}
	entry.old, entry.new = old, new
	line := gitformat.ReflogLine(entry.old, entry.new, gitformat.Signature(entry.who), entry.message)
	if err := appendLog(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)), false, line); err != nil {
		lock.release()
		return fmt.Errorf("update %s: %w", ref, err)
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
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	out, found := dropPackedLine(b, ref)
	if !found {
		return nil
	}
	lock, err := s.acquireLock(ctx, path, out, true)
	if err != nil {
		return err
	}
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, b) {
		lock.release()
		return fmt.Errorf("packed-refs changed while it was rewritten")
	}
	return lock.commit()
}

// dropPackedLine returns packed-refs content b without ref's line and the
// peeled "^" line that follows it, and whether it was there.
func dropPackedLine(b []byte, ref string) ([]byte, bool) {
	var out bytes.Buffer
	found, skipPeeled := false, false
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if skipPeeled && line[0] == '^' {
			continue
		}
		skipPeeled = false
		if _, name, ok := strings.Cut(strings.TrimRight(string(line), "\r\n"), " "); ok && line[0] != '#' && name == ref {
			found, skipPeeled = true, true
			continue
		}
		out.Write(line)
	}
	return out.Bytes(), found
}

// Refs returns the refs under prefix, loose and packed (a loose ref wins),
// with the commit each points at. Lock files and temporary files are
// skipped.
func (s *Store) Refs(ctx context.Context, prefix string) (map[string]string, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	out := map[string]string{}
	s.packed.mu.Lock()
	err := s.packed.load(filepath.Join(s.commonDir, "packed-refs"))
	for name, id := range s.packed.refs {
		if strings.HasPrefix(name, prefix) {
			out[name] = id.String()
		}
	}
	s.packed.mu.Unlock()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(s.commonDir, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(path, ".lock") || strings.HasPrefix(d.Name(), ".wikid-") {
			return nil
		}
		rel, err := filepath.Rel(s.commonDir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) || gitformat.CheckRefName(name) != nil {
			return nil
		}
		v, err := s.readLooseRef(name)
		if err != nil {
			return err
		}
		if id, ok := gitformat.ParseHex(v); ok {
			out[name] = id.String()
		}
		return nil
	})
	return out, err
}
