package gitstore

import (
	"context"
	"errors"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/wikid/wikid/internal/gitstore/gitformat"
	"github.com/wikid/wikid/internal/gitstore/gitnotes"
	"github.com/wikid/wikid/internal/wiki"
)

// Review notes are git notes under wiki.ReviewNotesRef: written by the git
// command itself (see package gitnotes), read here from the objects, as a
// page of the changes asks for them on every view. A notes ref is a branch
// of its own: its commits never touch the wiki's branch, its index or its
// checkout.

// reviewNotes is the notes ref of the review marks.
func (s *Store) reviewNotes() gitnotes.Notes {
	return gitnotes.Notes{GitDir: s.gitDir, Ref: wiki.ReviewNotesRef, Log: s.log}
}

// ReviewNotes returns the review note of each of commits that has one, by
// commit id, read from the tree of the notes ref's commit as git notes
// reads it: a note of commit <id> is the blob named <id>, or under a fanout
// folder named by its first two hex digits (and so on down).
func (s *Store) ReviewNotes(ctx context.Context, commits []string) (map[string]string, error) {
	out := map[string]string{}
	if len(commits) == 0 {
		return out, nil
	}
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	_, tip, ok, err := s.readRef(wiki.ReviewNotesRef)
	if err != nil || !ok {
		return out, err
	}
	root, err := s.rootTree(tip.String())
	if err != nil {
		return nil, err
	}
	for _, c := range commits {
		if _, ok := gitformat.ParseHex(c); !ok {
			continue
		}
		blob, ok, err := s.noteBlob(root, strings.ToLower(c))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		typ, b, err := s.readObject(blob)
		if err != nil {
			return nil, err
		}
		if typ == plumbing.BlobObject {
			out[c] = string(b)
		}
	}
	return out, nil
}

// noteBlob finds the note of the commit whose id is hex in a notes tree:
// the blob named by the rest of the id at each level, else the folder
// named by its next two digits.
func (s *Store) noteBlob(root plumbing.Hash, hex string) (plumbing.Hash, bool, error) {
	for id, rest := root, hex; ; {
		t, err := s.tree(id)
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if e, ok := gitformat.Find(t.entries, rest); ok && !gitformat.IsTreeMode(e.Mode) {
			return e.ID, true, nil
		}
		e, ok := gitformat.Find(t.entries, rest[:min(2, len(rest))])
		if len(rest) <= 2 || !ok || !gitformat.IsTreeMode(e.Mode) {
			return plumbing.ZeroHash, false, nil
		}
		id, rest = e.ID, rest[2:]
	}
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
