package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// RevertRequest undoes one commit's changes to notes.
type RevertRequest struct {
	// Commit is a revision naming a commit with at most one parent.
	Commit string
	// Mutation's DryRun, Message and Caller apply; ExpectedVersion is not
	// used (the merge checks every note against the commit instead).
	Mutation
}

// RevertConflict is a note whose later changes overlap what the revert
// would undo.
type RevertConflict struct {
	Path string
	// Reason says what happened to the note since, when it is not a
	// clash of lines (deleted, re-created, renamed).
	Reason string
	// Hunks are the clashing regions.
	Hunks []ConflictHunk
}

// ConflictHunk is a region of a note that a later change and the revert
// both change.
type ConflictHunk struct {
	// Line is the region's first line in the note now.
	Line int
	// Now is the region as it is, Commit as the commit left it, Before as
	// it was before the commit (what the revert would bring back).
	Now    string
	Commit string
	Before string
}

// Revert writes a new commit that undoes what one commit did to notes:
// changed notes get the inverse change, created notes are deleted, deleted
// notes come back and renamed notes move back; a note renamed since gets
// the inverse at its new path. When later commits changed
// the same notes, the inverse is merged into them line by line (a
// three-way merge, as `git revert` does); where it overlaps a later change
// nothing is written and the error is CONFLICT with the overlapping hunks
// in Details["conflicts"] ([]RevertConflict). Files that are not notes are
// left as they are, with a warning. Nothing is ever reset or rewritten. It
// returns INVALID_PARAMS (a merge commit, a commit that changed no note),
// NOT_FOUND, AMBIGUOUS, CONFLICT, LOCAL_CHANGES and READ_ONLY.
func (w *Wiki) Revert(ctx context.Context, req RevertRequest) (*Result, error) {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	commit, err := w.resolve(ctx, req.Commit)
	if err != nil {
		return nil, err
	}
	plan, skipped, info, err := w.revertPlan(ctx, commit)
	if err != nil {
		return nil, err
	}
	if err := w.followMoves(ctx, commit, head.Commit, plan); err != nil {
		return nil, err
	}
	subject := firstLine(info.Message)
	m := req.Mutation
	m.ExpectedVersion = ""
	m.Message = strings.TrimSpace(m.Message + "\n\nThis reverts commit " + commit + ".")
	res, err := w.mutate(ctx, "revert", m, func(ctx context.Context, t *txn) error {
		var conflicts []RevertConflict
		for _, step := range plan {
			c, err := step.apply(ctx, t)
			if err != nil {
				return err
			}
			if c != nil {
				conflicts = append(conflicts, *c)
			}
		}
		if len(conflicts) > 0 {
			return revertConflictError(commit, subject, conflicts)
		}
		t.verb("revert")
		t.subjectLine = oneLine(fmt.Sprintf("revert: %s %s", shortID(commit), subject))
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, f := range skipped {
		res.Warnings = append(res.Warnings, "left "+f+" as it is: it is not a note")
	}
	return res, nil
}

// revertStep undoes one file change: file went from before (nil: absent)
// to after (nil: absent) in the commit; a rename has oldFile.
type revertStep struct {
	file, oldFile string
	before, after []byte
}

// revertPlan reads what the commit did to notes. It returns the steps, the
// files that are not notes, and the commit.
func (w *Wiki) revertPlan(ctx context.Context, commit string) ([]revertStep, []string, CommitInfo, error) {
	info, err := w.store.CommitInfo(ctx, commit)
	if err != nil {
		return nil, nil, info, err
	}
	if len(info.Parents) > 1 {
		return nil, nil, info, Errorf(CodeInvalidParams, "commit %s is a merge; {revert} undoes a commit with one parent", shortID(commit)).
			WithHint("revert the commits the merge brought in, one at a time ({activity} lists them)")
	}
	parent := ""
	if len(info.Parents) == 1 {
		parent = info.Parents[0]
	}
	all, err := w.store.Changes(ctx, parent, commit)
	if err != nil {
		return nil, nil, info, err
	}
	var changes []FileChange
	var skipped []string
	for _, ch := range all {
		if _, _, ok := note.SplitFileName(ch.Path); ok {
			changes = append(changes, ch)
		} else {
			skipped = append(skipped, ch.Path)
		}
	}
	if len(changes) == 0 {
		return nil, nil, info, Errorf(CodeInvalidParams, "commit %s changed no note", shortID(commit)).
			WithHint("{activity} lists the commits and the notes they changed")
	}
	renames, err := w.hist.Renames(ctx, changes)
	if err != nil {
		return nil, nil, info, err
	}
	blobs := map[string]string{} // deleted file -> its blob
	sources := map[string]bool{}
	for _, ch := range changes {
		if ch.NewBlob == "" {
			blobs[ch.Path] = ch.OldBlob
		}
	}
	for _, old := range renames {
		sources[old] = true
	}
	var plan []revertStep
	for _, ch := range changes {
		if sources[ch.Path] && ch.NewBlob == "" {
			continue
		}
		step := revertStep{file: ch.Path}
		oldBlob := ch.OldBlob
		if old, ok := renames[ch.Path]; ok {
			step.oldFile, oldBlob = old, blobs[old]
		}
		if step.before, err = w.readBlob(ctx, oldBlob); err != nil {
			return nil, nil, info, err
		}
		if step.after, err = w.readBlob(ctx, ch.NewBlob); err != nil {
			return nil, nil, info, err
		}
		plan = append(plan, step)
	}
	return plan, skipped, info, nil
}

// followMoves points the steps whose file was renamed between the commit
// and head (found as git's merge finds renames) at the file's new path, so
// that the inverse lands where the note is now.
func (w *Wiki) followMoves(ctx context.Context, commit, head string, plan []revertStep) error {
	snap, err := w.store.Snapshot(ctx, head)
	if err != nil {
		return err
	}
	missing := false
	for _, s := range plan {
		if s.after == nil {
			continue
		}
		if _, err := snap.Stat(ctx, s.file); errors.Is(err, ErrNotFound) {
			missing = true
		} else if err != nil {
			return err
		}
	}
	if !missing {
		return nil
	}
	changes, err := w.store.Changes(ctx, commit, head)
	if err != nil {
		return err
	}
	renames, err := w.hist.Renames(ctx, changes)
	if err != nil {
		return err
	}
	moved := make(map[string]string, len(renames))
	for to, from := range renames {
		moved[from] = to
	}
	for i := range plan {
		if to, ok := moved[plan[i].file]; ok && plan[i].after != nil {
			plan[i].file = to
		}
	}
	return nil
}

// readBlob reads a blob; "" is absent (nil).
func (w *Wiki) readBlob(ctx context.Context, blob string) ([]byte, error) {
	if blob == "" {
		return nil, nil
	}
	b, err := w.store.ReadBlob(ctx, blob)
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}

// apply stages the inverse of the step on the transaction, or returns the
// conflict that prevents it.
func (s revertStep) apply(ctx context.Context, t *txn) (*RevertConflict, error) {
	cur, err := t.stage(ctx, s.file)
	if err != nil {
		return nil, err
	}
	target := cur // where the content before the commit goes back to
	if s.oldFile != "" {
		if target, err = t.stage(ctx, s.oldFile); err != nil {
			return nil, err
		}
	}
	switch {
	case s.after == nil: // the commit deleted the note: bring it back
		switch {
		case cur.content == nil:
			return nil, t.put(cur, s.before)
		case bytes.Equal(cur.content, s.before):
			return nil, nil
		}
		return &RevertConflict{Path: cur.notePath, Reason: "a note with other content exists at its path again"}, nil
	case cur.content == nil:
		if s.before == nil {
			return nil, nil // created by the commit and deleted since
		}
		return &RevertConflict{Path: cur.notePath, Reason: "the note was deleted or moved since"}, nil
	case s.before == nil: // the commit created the note: delete it
		if bytes.Equal(cur.content, s.after) {
			cur.content = nil
			return nil, nil
		}
		return &RevertConflict{Path: cur.notePath, Reason: "the note changed since it was created; deleting it would lose those changes"}, nil
	case target != cur && target.content != nil:
		return &RevertConflict{Path: target.notePath, Reason: "a note exists again at the path " + cur.notePath + " was renamed from"}, nil
	}
	merged, hunks, err := textdiff.Merge3(s.after, cur.content, s.before)
	if errors.Is(err, textdiff.ErrConflict) {
		c := &RevertConflict{Path: cur.notePath}
		for _, h := range hunks {
			c.Hunks = append(c.Hunks, ConflictHunk{Line: h.Ours.Start,
				Now: string(h.Ours.Text), Commit: string(h.Base.Text), Before: string(h.Theirs.Text)})
		}
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if target != cur {
		cur.content = nil
	}
	return nil, t.put(target, merged)
}

// revertConflictError is the CONFLICT a revert fails with, the clashing
// regions shown as git shows a conflict (diff3 style).
func revertConflictError(commit, subject string, cs []RevertConflict) error {
	var b strings.Builder
	fmt.Fprintf(&b, "reverting %s (%s) conflicts with later changes to %d note(s)", shortID(commit), subject, len(cs))
	for _, c := range cs {
		if c.Reason != "" {
			fmt.Fprintf(&b, "\n%s: %s", c.Path, c.Reason)
			continue
		}
		for _, h := range c.Hunks {
			fmt.Fprintf(&b, "\n%s, line %d:\n<<<<<<< now\n%s||||||| %s\n%s=======\n%s>>>>>>> before %s",
				c.Path, h.Line, text(h.Now), shortID(commit), text(h.Commit), text(h.Before), shortID(commit))
		}
	}
	e := Errorf(CodeConflict, "%s", b.String())
	e.Details = map[string]any{"conflicts": cs}
	return e.WithHint("edit the notes by hand (read them, then {edit}), or {restore} a version; nothing was changed")
}

// text returns lines for a conflict display, ending with a newline.
func text(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// firstLine is a commit message's subject.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(line)
}
