package wiki

import (
	"context"
	"errors"
	"fmt"

	"github.com/wikid/wikid/internal/note"
)

// Change is one step of a batch: exactly one of its fields is set. The
// step's own DryRun, Message and Caller are ignored; its ExpectedVersion
// counts.
type Change struct {
	Write    *WriteRequest
	Edit     *EditRequest
	Metadata *MetadataRequest
	Delete   *DeleteRequest
}

// ApplyRequest is a batch of changes committed together.
type ApplyRequest struct {
	Changes []Change
	Mutation
}

// Apply runs the changes in order on one transaction and commits them as
// one commit, all or nothing: the first failing step fails the batch with
// its error code, its message prefixed with the step number. Later steps see
// the results of earlier ones.
func (w *Wiki) Apply(ctx context.Context, req ApplyRequest) (*Result, error) {
	if len(req.Changes) == 0 {
		return nil, note.Errorf(note.CodeInvalidParams, "changes is empty").WithHint("give at least one change")
	}
	return w.mutate(ctx, "apply_changes", req.Mutation, func(t *txn) error {
		for i, c := range req.Changes {
			if err := t.apply(c); err != nil {
				return stepError(i, c, err)
			}
		}
		return nil
	})
}

func (t *txn) apply(c Change) error {
	switch {
	case c.Write != nil && c.Edit == nil && c.Metadata == nil && c.Delete == nil:
		return t.write(*c.Write)
	case c.Edit != nil && c.Write == nil && c.Metadata == nil && c.Delete == nil:
		return t.edit(*c.Edit)
	case c.Metadata != nil && c.Write == nil && c.Edit == nil && c.Delete == nil:
		return t.updateMetadata(*c.Metadata)
	case c.Delete != nil && c.Write == nil && c.Edit == nil && c.Metadata == nil:
		return t.delete(*c.Delete)
	}
	return note.Errorf(note.CodeInvalidParams, "a change must name exactly one tool")
}

func (c Change) tool() string {
	switch {
	case c.Write != nil:
		return "write_note"
	case c.Edit != nil:
		return "edit_note"
	case c.Metadata != nil:
		return "update_metadata"
	case c.Delete != nil:
		return "delete_note"
	}
	return "unknown"
}

// stepError prefixes a step's error with its position, keeping its code.
func stepError(i int, c Change, err error) error {
	prefix := fmt.Sprintf("change %d (%s)", i+1, c.tool())
	var e *note.Error
	if errors.As(err, &e) {
		return &note.Error{Code: e.Code, Message: prefix + ": " + e.Message, Hint: e.Hint, Line: e.Line, Details: e.Details}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}
