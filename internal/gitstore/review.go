package gitstore

import (
	"context"
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/gitnotes"
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
	var root plumbing.Hash
	for _, c := range commits {
		id, ok := gitformat.ParseHex(c)
		if !ok {
			continue
		}
		n, known := s.reviews.Get(id)
		if !known || n.tip != tip {
			if root.IsZero() {
				if root, err = s.rootTree(tip.String()); err != nil {
					return nil, err
				}
			}
			if n, err = s.readNote(root, id.String()); err != nil {
				return nil, err
			}
			n.tip = tip
			s.reviews.Put(id, n)
		}
		if n.ok {
			out[c] = n.text
		}
	}
	return out, nil
}

// readNote reads the note of the commit whose id is hex from a notes tree.
func (s *Store) readNote(root plumbing.Hash, hex string) (reviewNote, error) {
	blob, ok, err := s.noteBlob(root, hex)
	if err != nil || !ok {
		return reviewNote{}, err
	}
	typ, b, err := s.readObject(blob)
	if err != nil || typ != plumbing.BlobObject {
		return reviewNote{}, err
	}
	return reviewNote{text: string(b), ok: true}, nil
}

// reviewNote is a commit's review note as read at one tip of the notes
// ref; ok is false when it has none. The store keeps those it read (see
// reviewCache): a page of the changes asks for the same commits on every
// view, and the notes do not change until the ref moves, whoever moves it.
type reviewNote struct {
	tip  plumbing.Hash
	text string
	ok   bool
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
