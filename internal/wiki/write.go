package wiki

import (
	"context"

	"github.com/wikid/wikid/internal/note"
)

// WriteRequest creates a note or replaces a whole note.
type WriteRequest struct {
	Path string
	// Content is the whole note; it may start with frontmatter.
	Content string
	// Title, Tags, Aliases and Properties are merged into the content's
	// frontmatter: Title, Aliases and each property replace what the content
	// says; Tags are added to the content's tags.
	Title      *string
	Tags       []string
	Aliases    []string
	Properties map[string]any
	// Overwrite allows replacing an existing note.
	Overwrite bool
	Mutation
}

// Write creates or replaces a note as one commit. A path that differs from
// an existing note's only in case or Unicode normalization names that note;
// a new note is named in normalization form C. It returns errors with codes
// INVALID_PATH (also for a new note whose name another machine could not
// check out, or that is named like another kind of file, "notes.txt": see
// note.CheckNewPath), INVALID_PARAMS, ALREADY_EXISTS (the note exists and
// Overwrite is false), CONFLICT, TOO_LARGE, LOCAL_CHANGES and READ_ONLY.
func (w *Wiki) Write(ctx context.Context, req WriteRequest) (*Result, error) {
	return w.mutate(ctx, "write", req.Mutation, func(ctx context.Context, t *txn) error { return t.write(ctx, req) })
}

func (t *txn) write(ctx context.Context, req WriteRequest) error {
	s, err := t.stage(ctx, req.Path)
	if err != nil {
		return err
	}
	if s.content != nil && !req.Overwrite {
		return Errorf(CodeAlreadyExists, "note %q already exists", s.notePath).
			WithHint("{overwrite} to replace it, or change part of it with {edit}")
	}
	if s.content == nil {
		if err := checkNewPath(req.Path); err != nil {
			return err
		}
	}
	if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
		return err
	}
	content := []byte(req.Content)
	ch := note.MetaChange{Title: req.Title, AddTags: req.Tags, Aliases: req.Aliases, Set: req.Properties}
	if ch.Title != nil || ch.AddTags != nil || ch.Aliases != nil || len(ch.Set) > 0 {
		if content, err = note.UpdateMetadata(content, ch); err != nil {
			return err
		}
	}
	if s.content == nil {
		t.verb("create")
	} else {
		t.verb("write")
	}
	return t.put(s, content)
}

// checkNewPath applies note.CheckNewPath to a caller's path for a note that
// does not exist yet, in normal form C, as the note will be named.
func checkNewPath(path string) error {
	notePath, ext, err := note.CleanPath(path)
	if err != nil {
		return err
	}
	return note.CheckNewPath(note.Normalize(notePath), ext)
}
