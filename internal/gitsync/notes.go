package gitsync

import (
	"context"
	"strings"
)

// ReviewNotes is the notes ref where the web pages keep review marks. A
// round brings the remote's marks in and sends this side's out, so that
// they travel with the notes.
const ReviewNotes = "refs/notes/wikid-review"

// syncNotes exchanges the review marks with the upstream's remote: it
// fetches the remote's, merges them into this side's (both sides' marks
// kept: git notes merge with cat_sort_uniq, a mark for a commit on each
// side keeps both lines), and pushes the result. A failure is reported,
// and leaves the branch's sync alone.
func (s *Syncer) syncNotes(ctx context.Context, u Upstream) error {
	theirs := "refs/notes/remotes/" + u.Remote + "/wikid-review"
	if _, err := git(ctx, s.opts.Dir, "fetch", "--quiet", u.Remote, "+"+ReviewNotes+":"+theirs); err != nil &&
		!strings.Contains(err.Error(), "couldn't find remote ref") {
		return err
	}
	fetched := refExists(ctx, s.opts.Dir, theirs)
	local := refExists(ctx, s.opts.Dir, ReviewNotes)
	switch {
	case fetched && !local:
		if _, err := git(ctx, s.opts.Dir, "update-ref", ReviewNotes, theirs); err != nil {
			return err
		}
		local = true
	case fetched:
		if _, err := git(ctx, s.opts.Dir, "notes", "--ref="+ReviewNotes, "merge", "--quiet", "-s", "cat_sort_uniq", theirs); err != nil {
			return err
		}
	}
	if !local {
		return nil
	}
	_, err := git(ctx, s.opts.Dir, "push", "--quiet", u.Remote, ReviewNotes+":"+ReviewNotes)
	return err
}

func refExists(ctx context.Context, dir, ref string) bool {
	_, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref)
	return err == nil
}
