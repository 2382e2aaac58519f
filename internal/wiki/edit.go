package wiki

import (
	"context"

	"github.com/wikid/wikid/internal/note"
)

// EditRequest changes part of a note with a list of edit operations.
type EditRequest struct {
	Path  string
	Edits []note.Edit
	Mutation
}

// Edit applies the edits in order, all or nothing, as one commit. Besides
// the errors of the edit operations (NOT_FOUND for a missing section or find
// text, AMBIGUOUS for a find text matching another number of times than
// expected, INVALID_PARAMS) it returns INVALID_PATH, NOT_FOUND for a missing
// note, CONFLICT, TOO_LARGE, LOCAL_CHANGES and READ_ONLY.
func (w *Wiki) Edit(ctx context.Context, req EditRequest) (*Result, error) {
	return w.mutate(ctx, "edit", req.Mutation, func(ctx context.Context, t *txn) error { return t.edit(ctx, req) })
}

func (t *txn) edit(ctx context.Context, req EditRequest) error {
	if len(req.Edits) == 0 {
		return Errorf(CodeInvalidParams, "edits is empty").WithHint("give at least one edit operation")
	}
	s, err := t.existing(ctx, req.Path)
	if err != nil {
		return err
	}
	if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
		return err
	}
	content, err := note.ApplyEdits(s.content, req.Edits)
	if err != nil {
		return err
	}
	t.verb("edit")
	return t.put(s, content)
}
