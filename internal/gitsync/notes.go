package gitsync

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// syncNotes exchanges the review marks with the upstream's remote: it
// fetches the remote's, merges them into this side's (both sides' marks
// kept: git notes merge with cat_sort_uniq, a mark for a commit on each
// side keeps both lines), and pushes the result. A failure is reported,
// and leaves the branch's sync alone.
func (s *Syncer) syncNotes(ctx context.Context, u Upstream) error {
	// The review marks' notes ref, and where the remote's are fetched to.
	const ours = wiki.ReviewNotesRef
	theirs := "refs/notes/remotes/" + u.Remote + "/" + strings.TrimPrefix(ours, "refs/notes/")
	if _, err := git(ctx, s.opts.Dir, "fetch", "--quiet", u.Remote, "+"+ours+":"+theirs); err != nil &&
		!strings.Contains(err.Error(), "couldn't find remote ref") {
		return err
	}
	fetched, err := s.refExists(ctx, theirs)
	if err != nil {
		return err
	}
	local, err := s.refExists(ctx, ours)
	if err != nil {
		return err
	}
	switch {
	case fetched && !local:
		if _, err := git(ctx, s.opts.Dir, "update-ref", ours, theirs); err != nil {
			return err
		}
		local = true
	case fetched:
		if _, err := git(ctx, s.opts.Dir, "notes", "--ref="+ours, "merge", "--quiet", "-s", "cat_sort_uniq", theirs); err != nil {
			return err
		}
	}
	if !local {
		return nil
	}
	_, err = git(ctx, s.opts.Dir, "push", "--quiet", u.Remote, ours+":"+ours)
	return err
}

// refExists reports whether a ref exists, as the wiki reads it.
func (s *Syncer) refExists(ctx context.Context, ref string) (bool, error) {
	c, err := s.commitOf(ctx, ref)
	return c != "", err
}
