package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/journal"
	"github.com/wikid/wikid/internal/wiki"
)

// Adopted is what AdoptCheckout committed and what it left out.
type Adopted struct {
	// Commit is the new commit's id.
	Commit string
	// Paths are the files committed, sorted.
	Paths []string
	// Skipped are the files and folders left out that git would not leave
	// out (symlinks, nested repositories, names git cannot hold), each with
	// the reason: "notes/link (a symlink)".
	Skipped []string
}

// AdoptCheckout makes the first commit of the branch HEAD points at from
// the files of the checkout as they are on disk: every file that `git add
// --all` would add, that is every file not ignored by the .gitignore files
// or .git/info/exclude (core.excludesFile is not read). The files
// themselves are not rewritten; the index gets their entries, so `git
// status` is clean afterwards. req.Changes and req.Parent must be empty.
//
// It returns an error, and commits nothing, when the branch already has a
// commit (wiki.ErrHeadMoved), the repository is bare, a file changes while
// it is read, the index lock is held (ErrLocked), or the disk is full or
// read-only (NO_SPACE, READ_ONLY; see wikierr.FromOS).
func (s *Store) AdoptCheckout(ctx context.Context, req wiki.CommitRequest) (ad *Adopted, err error) {
	defer s.classify("adopt the checkout", &err)
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if s.workTree == "" {
		return nil, wiki.Errorf(wiki.CodeInvalidParams, "adopt the checkout: the repository is bare")
	}
	if req.Parent != "" || len(req.Changes) > 0 {
		return nil, wiki.Errorf(wiki.CodeInvalidParams, "adopt the checkout: the request has a parent or changes")
	}
	paths, skipped, err := s.checkoutFiles()
	if err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	now := time.Now()
	stamp(&req.Author, now)
	stamp(&req.Committer, now)

	s.write.Lock()
	defer s.write.Unlock()
	head, err := s.readHead()
	if err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	if err := checkUnborn(head); err != nil {
		return nil, err
	}

	// Each file is stat'ed before and after it is read: an entry of the
	// index must describe the content committed.
	stats := make(map[string]os.FileInfo, len(paths))
	req.Changes = make([]wiki.FileChange, 0, len(paths))
	for _, p := range paths {
		full := filepath.Join(s.workTree, filepath.FromSlash(p))
		before, err := os.Lstat(full)
		if err != nil {
			return nil, fmt.Errorf("adopt the checkout: %w", err)
		}
		b, err := os.ReadFile(full)
		if err != nil {
			return nil, fmt.Errorf("adopt the checkout: %w", err)
		}
		after, err := os.Lstat(full)
		if err != nil {
			return nil, fmt.Errorf("adopt the checkout: %w", err)
		}
		if after.Size() != int64(len(b)) || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
			return nil, wiki.Errorf(wiki.CodeConflict, "%s changed while wikid read it", p).WithHint("retry when nothing is writing to the folder")
		}
		stats[p] = after
		req.Changes = append(req.Changes, wiki.FileChange{Path: p, Content: b})
	}
	if err := checkRequest(&req); err != nil {
		return nil, err
	}
	changes, err := s.planChanges(plumbing.ZeroHash, req.Changes)
	if err != nil {
		return nil, err
	}
	done := make([]written, len(changes))
	for i, c := range changes {
		if fi := stats[c.path]; s.cfg.FileMode && fi.Mode()&0o100 != 0 {
			c.mode = gitformat.ModeExec
		}
		done[i] = written{c: c, fi: stats[c.path]}
	}
	obj, err := s.buildObjects(plumbing.ZeroHash, plumbing.ZeroHash, changes, &req)
	if err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}

	// Journaled like a commit (see journal), with no paths: the files are
	// the person's and stay whatever happens; a crash leaves only locks
	// that the next process proves ours and removes.
	s.recoverAll(ctx)
	j := &journal.Journal{Branch: head.Branch, Commit: obj.id.String()}
	if err := s.writeJournal(j, nil); err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	s.tag = j.Tag()
	defer func() {
		s.tag = ""
		s.removeJournal(j)
	}()
	l, err := s.acquireLock(ctx, s.indexPath(), j.IndexLockContent(), false)
	if err != nil {
		return nil, fmt.Errorf("adopt the checkout: lock the index: %w", err)
	}
	defer l.release()
	if head, err = s.readHead(); err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	if err := checkUnborn(head); err != nil {
		return nil, err
	}
	ix, err := gitindex.Read(s.indexPath(), s.indexIn)
	if err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	if err := unwritableIndex(ix); err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.writeObjects(changes, obj, s.tag); err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	u := &checkoutUpdate{s: s}
	if err := u.writeIndex(ix, plumbing.ZeroHash, done, func() error { return nil }); err != nil {
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	entry := reflogEntry{who: req.Committer, message: gitformat.ReflogMessage(req.Message, true)}
	if err := s.moveRef(ctx, head.Branch, plumbing.ZeroHash, obj.id, entry, ""); err != nil {
		if rerr := u.rollback(); rerr != nil {
			return nil, fmt.Errorf("adopt the checkout: %w (and %w: %w)", err, errNotPutBack, rerr)
		}
		return nil, fmt.Errorf("adopt the checkout: %w", err)
	}
	s.commits.Put(obj.id, &gitformat.Commit{Tree: obj.tree})
	return &Adopted{Commit: obj.id.String(), Paths: paths, Skipped: skipped}, nil
}

// checkUnborn returns wiki.ErrDetached, or wiki.ErrHeadMoved when the
// branch already has a commit.
func checkUnborn(head wiki.Head) error {
	if head.Detached {
		return wiki.ErrDetached
	}
	if head.Commit != "" {
		return fmt.Errorf("%w: %s already has commits", wiki.ErrHeadMoved, head.Branch)
	}
	return nil
}

// checkoutFiles lists the regular files of the checkout that are not
// ignored, sorted, and the entries left out for another reason.
func (s *Store) checkoutFiles() (paths, skipped []string, err error) {
	patterns, err := gitignore.ReadPatterns(osfs.New(s.workTree), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("read .gitignore: %w", err)
	}
	ignored := gitignore.NewMatcher(patterns)
	err = filepath.WalkDir(s.workTree, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(s.workTree, full)
		if err != nil || rel == "." {
			return err
		}
		p := filepath.ToSlash(rel)
		parts := strings.Split(p, "/")
		switch {
		case d.IsDir() && strings.EqualFold(d.Name(), ".git"):
			return filepath.SkipDir
		case ignored.Match(parts, d.IsDir()):
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case d.IsDir():
			if _, err := os.Lstat(filepath.Join(full, ".git")); err == nil {
				skipped = append(skipped, p+" (a git repository of its own)")
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			skipped = append(skipped, p+" (a symlink)")
			return nil
		case !d.Type().IsRegular():
			skipped = append(skipped, p+" (not a regular file)")
			return nil
		}
		if _, err := splitPath(p); err != nil {
			skipped = append(skipped, p+" (a name git cannot hold)")
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil && !errors.Is(err, filepath.SkipDir) {
		return nil, nil, err
	}
	slices.Sort(paths)
	return paths, skipped, nil
}
