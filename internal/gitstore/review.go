package gitstore

import (
	"context"
	"errors"

	"github.com/wikid/wikid/internal/gitstore/gitformat"
	"github.com/wikid/wikid/internal/gitstore/gitnotes"
	"github.com/wikid/wikid/internal/wiki"
)

// Review notes are git notes under wiki.ReviewNotesRef, read and written by
// the git command itself (see package gitnotes). A notes ref is a branch of
// its own: its commits never touch the wiki's branch, its index or its
// checkout.

// reviewNotes is the notes ref of the review marks.
func (s *Store) reviewNotes() gitnotes.Notes {
	return gitnotes.Notes{GitDir: s.gitDir, Ref: wiki.ReviewNotesRef, Log: s.log}
}

// ReviewNotes returns the review note of each of commits that has one, by
// commit id. It returns git's message when git fails.
func (s *Store) ReviewNotes(ctx context.Context, commits []string) (map[string]string, error) {
	if len(commits) == 0 {
		return map[string]string{}, nil
	}
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	return s.reviewNotes().Read(ctx, commits)
}

// WriteReviewNotes gives each commit of req its note, or removes it, with
// one git notes command each. A failure part way puts the notes ref back
// where it was, unless someone moved it meanwhile. Without req.Replace, a
// commit that has a note fails with CONFLICT.
func (s *Store) WriteReviewNotes(ctx context.Context, req wiki.ReviewNotesRequest) error {
	if len(req.Commits) == 0 {
		return nil
	}
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.reviewNotes().Write(ctx, req.Commits, req.Text, req.Replace, gitformat.Signature(req.By))
	if e := (*gitnotes.ExistsError)(nil); errors.As(err, &e) {
		return wiki.Errorf(wiki.CodeConflict, "commit %s has a review mark already", e.Commit)
	}
	return err
}
