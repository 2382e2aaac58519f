package wiki

import (
	"context"
	"errors"
	"fmt"
)

// How a commit made elsewhere was integrated.
const (
	IntegratedAlready     = "up to date"   // it was in the branch already
	IntegratedFastForward = "fast-forward" // the branch moved to it
	IntegratedMerge       = "merge"        // a merge commit joins them
)

// MergeFunc makes the changes of a merge: given the merge base and the two
// commits to join, it returns the files that differ from ours in the merged
// tree, and the body of the merge commit's message.
type MergeFunc func(ctx context.Context, base, ours, theirs string) ([]FileChange, string, error)

// IntegrateRequest brings a commit made elsewhere, already in the
// repository (fetched), into the branch.
type IntegrateRequest struct {
	Theirs string
	// Merge makes the merge when neither commit contains the other.
	Merge MergeFunc
	// Subject is the first line of a merge commit's message, for example
	// "sync: merge origin/main".
	Subject string
	Caller  Caller
}

// IntegrateResult says what Integrate did.
type IntegrateResult struct {
	// How is IntegratedAlready, IntegratedFastForward or IntegratedMerge.
	How string
	// Commit is the branch's commit afterwards.
	Commit string
}

// Integrate brings req.Theirs into the branch without rewriting history:
// nothing when the branch has it, a fast-forward when the branch is its
// ancestor, else one merge commit (parents: the branch's commit, then
// req.Theirs) whose changes req.Merge makes. Like a mutation it is
// serialized with every other change and retried when HEAD moves under
// it; a checkout whose touched files have uncommitted changes fails with
// LOCAL_CHANGES and changes nothing. The derived state follows before it
// returns. It returns READ_ONLY for a read-only wiki or a detached HEAD,
// and CONFLICT when the two histories share no commit.
func (w *Wiki) Integrate(ctx context.Context, req IntegrateRequest) (*IntegrateResult, error) {
	if w.opts.ReadOnly {
		return nil, w.readOnlyError()
	}
	res, err := w.integrate(ctx, req)
	if err != nil {
		return nil, contractError(err)
	}
	if res.How != IntegratedAlready {
		if err := w.CatchUp(ctx); err != nil {
			w.log.Warn("derived state did not catch up after integrating", "commit", short(res.Commit), "err", err)
		}
	}
	return res, nil
}

func (w *Wiki) integrate(ctx context.Context, req IntegrateRequest) (*IntegrateResult, error) {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	for attempt := 0; ; attempt++ {
		res, err := w.integrateOnce(ctx, req)
		if errors.Is(err, ErrHeadMoved) && attempt < maxRetries {
			continue
		}
		return res, err
	}
}

func (w *Wiki) integrateOnce(ctx context.Context, req IntegrateRequest) (*IntegrateResult, error) {
	head, err := w.store.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("integrate: %w", err)
	}
	if head.Detached {
		return nil, ErrDetached
	}
	if err := w.onBranch(ctx, head); err != nil {
		return nil, err
	}
	ours := head.Commit
	res := &IntegrateResult{How: IntegratedAlready, Commit: ours}
	if req.Theirs == ours {
		return res, nil
	}
	if ours != "" {
		if in, err := w.store.IsAncestor(ctx, req.Theirs, ours); err != nil {
			return nil, fmt.Errorf("integrate: %w", err)
		} else if in {
			return res, nil
		}
	}
	ff := ours == ""
	if !ff {
		if ff, err = w.store.IsAncestor(ctx, ours, req.Theirs); err != nil {
			return nil, fmt.Errorf("integrate: %w", err)
		}
	}
	commitReq := CommitRequest{
		Parent:    ours,
		Branch:    head.Branch,
		Author:    w.signature(req.Caller.Author),
		Committer: w.signature(w.opts.Committer),
	}
	if ff {
		changes, err := w.store.Changes(ctx, ours, req.Theirs)
		if err != nil {
			return nil, fmt.Errorf("integrate: %w", err)
		}
		if err := w.fillContent(ctx, req.Theirs, changes); err != nil {
			return nil, err
		}
		commitReq.Changes, commitReq.FastForward = changes, req.Theirs
		commitReq.Message = fmt.Sprintf("fast-forward to %s", short(req.Theirs))
		res.How = IntegratedFastForward
	} else {
		base, err := w.store.MergeBase(ctx, ours, req.Theirs)
		if err != nil {
			return nil, fmt.Errorf("integrate: %w", err)
		}
		if base == "" {
			return nil, Errorf(CodeConflict, "the branch and %s share no history", short(req.Theirs)).
				WithHint("the other side is another repository, or its history was rewritten; merge it with git by hand")
		}
		changes, body, err := req.Merge(ctx, base, ours, req.Theirs)
		if err != nil {
			return nil, err
		}
		commitReq.Changes, commitReq.Merged = changes, []string{req.Theirs}
		commitReq.Message = req.Subject + "\n\n" + body
		res.How = IntegratedMerge
	}
	commit, err := w.store.Commit(ctx, commitReq)
	if err != nil {
		return nil, err
	}
	res.Commit = commit
	return res, nil
}

// fillContent reads the content of the changes that are not deletes from
// commit.
func (w *Wiki) fillContent(ctx context.Context, commit string, changes []FileChange) error {
	snap, err := w.store.Snapshot(ctx, commit)
	if err != nil {
		return fmt.Errorf("integrate: %w", err)
	}
	for i := range changes {
		if changes[i].Delete {
			continue
		}
		_, b, err := snap.Read(ctx, changes[i].Path)
		if err != nil {
			return fmt.Errorf("integrate: read %s: %w", changes[i].Path, err)
		}
		changes[i].Content = b
	}
	return nil
}

// A Restore is one file the guard puts back: its content, or its removal
// when Delete is set, and the version (blob id) the file must have at HEAD
// for the restore to apply, "" when it must not exist. A file that changed
// since the guard looked fails the restore with CONFLICT, so nothing
// written after it is overwritten.
type Restore struct {
	Content []byte
	Delete  bool
	Version string
}

// RestoreDropped puts back, as one commit whose subject is "restore:
// changes dropped by <commit>", notes that commit dropped by accident:
// files maps each file to what to put there, or to remove (the old path of
// a move, a deleted note that came back). why becomes the commit's body.
// It fails like any mutation, with CONFLICT when a file is no longer at its
// expected version, and changes nothing when the files are already as
// given.
func (w *Wiki) RestoreDropped(ctx context.Context, commit string, files map[string]Restore, why string) (*Result, error) {
	return w.mutate(ctx, "guard", Mutation{Message: why, Caller: Caller{Client: "wikid"}}, func(ctx context.Context, t *txn) error {
		for file, r := range files {
			s, err := t.stageFile(ctx, file)
			if errors.Is(err, ErrNotFound) {
				s, err = t.add(&staged{file: file, notePath: notePathOf(file)}), nil
			}
			if err != nil {
				return err
			}
			if s.base.Blob != r.Version {
				return Errorf(CodeConflict, "%s is at version %q, not %q: it changed since the guard looked", file, short(s.base.Blob), short(r.Version))
			}
			if r.Delete {
				s.content = nil
				continue
			}
			if err := t.put(s, r.Content); err != nil {
				return err
			}
		}
		t.verb("restore")
		t.subjectLine = "restore: changes dropped by " + short(commit)
		return nil
	})
}
