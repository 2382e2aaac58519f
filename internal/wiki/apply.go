package wiki

import (
	"context"
	"errors"
	"fmt"
)

// Change is one step of a batch: exactly one of its fields is set. The
// step's own DryRun, Message and Caller are ignored; its ExpectedVersion
// counts. A Move must be the batch's first change: its link rewrites are
// planned from the link graph at HEAD, which the steps before it would
// have made stale.
type Change struct {
	Write    *WriteRequest
	Edit     *EditRequest
	Metadata *MetadataRequest
	Delete   *DeleteRequest
	Move     *MoveRequest
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
		return nil, Errorf(CodeInvalidParams, "changes is empty").WithHint("give at least one change")
	}
	for i, c := range req.Changes {
		if c.Move != nil && i > 0 {
			return nil, stepError(i, c, Errorf(CodeInvalidParams, "{move} can only be the first change of a batch").
				WithHint("put the move first, or move in a call of its own before the batch"))
		}
	}
	var updated, broken []LinkedNote
	res, err := w.mutate(ctx, "apply", req.Mutation, func(ctx context.Context, t *txn) error {
		updated, broken = nil, nil
		for i, c := range req.Changes {
			var err error
			if c.Move != nil && c.count() == 1 {
				updated, broken, err = t.move(ctx, *c.Move)
			} else {
				err = t.apply(ctx, c)
			}
			if err != nil {
				return stepError(i, c, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.LinksUpdated, res.BrokenLinks = updated, broken
	if len(broken) > 0 {
		res.Warnings = append(res.Warnings, brokenWarning(broken, "still name the old paths"))
	}
	return res, nil
}

// apply runs one change that is not a move.
func (t *txn) apply(ctx context.Context, c Change) error {
	if c.count() != 1 {
		return Errorf(CodeInvalidParams, "a change must name exactly one operation")
	}
	switch {
	case c.Write != nil:
		return t.write(ctx, *c.Write)
	case c.Edit != nil:
		return t.edit(ctx, *c.Edit)
	case c.Metadata != nil:
		return t.updateMetadata(ctx, *c.Metadata)
	default:
		return t.delete(ctx, *c.Delete)
	}
}

// count returns how many tools the change names.
func (c Change) count() int {
	n := 0
	for _, set := range []bool{c.Write != nil, c.Edit != nil, c.Metadata != nil, c.Delete != nil, c.Move != nil} {
		if set {
			n++
		}
	}
	return n
}

// op returns the operation the change names, as a reference.
func (c Change) op() string {
	switch {
	case c.Write != nil:
		return "{write}"
	case c.Edit != nil:
		return "{edit}"
	case c.Metadata != nil:
		return "{metadata}"
	case c.Delete != nil:
		return "{delete}"
	case c.Move != nil:
		return "{move}"
	}
	return "unknown"
}

// stepError prefixes a step's error with its position, keeping its code.
func stepError(i int, c Change, err error) error {
	prefix := Sayf("change %d ("+c.op()+")", i+1)
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Message: prefix + ": " + e.Message, Hint: e.Hint, Line: e.Line, Details: e.Details}
	}
	return fmt.Errorf("%s: %w", prefix, err)
}
