package wiki

import (
	"context"
)

// DeleteRequest deletes a note. Confirm must be true.
type DeleteRequest struct {
	Path    string
	Confirm bool
	Mutation
}

// Delete removes the note as one commit; git keeps every earlier version,
// so restore_note brings it back. Links to it are left as they are:
// Result.BrokenLinks lists the notes whose links named it (they now resolve
// to nothing, or to another note of the same name). It returns
// INVALID_PARAMS when Confirm is false, INVALID_PATH, NOT_FOUND, CONFLICT,
// LOCAL_CHANGES and READ_ONLY.
func (w *Wiki) Delete(ctx context.Context, req DeleteRequest) (*Result, error) {
	var broken []LinkedNote
	res, err := w.mutate(ctx, "delete", req.Mutation, func(ctx context.Context, t *txn) error {
		if err := t.delete(ctx, req); err != nil {
			return err
		}
		var err error
		broken, err = t.deletedLinks(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	res.BrokenLinks = broken
	if len(broken) > 0 {
		res.Warnings = append(res.Warnings, brokenWarning(broken, "named the deleted note"))
	}
	if res.Commit != "" {
		res.Warnings = append(res.Warnings, Sayf("restore it with {restore} (path %s) if this was a mistake", res.Changes[0].Path))
	}
	return res, nil
}

func (t *txn) delete(ctx context.Context, req DeleteRequest) error {
	if !req.Confirm {
		return Errorf(CodeInvalidParams, "confirm must be true to delete a note").
			WithHint("call again with confirm: true; the note stays recoverable from history")
	}
	s, err := t.existing(ctx, req.Path)
	if err != nil {
		return err
	}
	if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
		return err
	}
	t.verb("delete")
	s.content = nil
	return nil
}
