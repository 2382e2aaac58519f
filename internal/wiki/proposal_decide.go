package wiki

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// DecideRequest is a person's decision on a proposal.
type DecideRequest struct {
	// ID is the proposal's id.
	ID string
	// Notes are the note or file paths decided; empty decides every open
	// note.
	Notes []string
	// Comment goes into the commit messages.
	Comment string
	// By is the person deciding: the committer of an accepted change and
	// of the decision; zero means Options.Author.
	By Identity
	// Hunk, when not 0, accepts or rejects only that hunk (from 1, in the
	// order of the note's Hunks in Proposal) of the one note Notes names;
	// the note stays open for its other hunks until none is left.
	Hunk int
}

// DecideResult is what a decision did.
type DecideResult struct {
	// Commit is the branch's commit of the accepted changes, "" when none
	// was needed (a rejection, or changes the branch held already).
	Commit string
	// Accepted and Rejected list the files decided so; Conflicts the notes
	// asked for that could not be merged and stay open.
	Accepted, Rejected []string
	Conflicts          []ProposalNote
	// Closed is "accepted", "partly accepted" or "rejected" when the
	// decision closed the proposal, else "".
	Closed string
	// Open counts the notes still open.
	Open int
	// Hunk is the header of the hunk accepted or rejected alone
	// ("@@ -3,7 +3,7 @@"), "" when whole notes were.
	Hunk string
}

// AcceptProposal lands the proposal's changes to the notes req names (all
// its open notes when none) on the branch, merged three ways with the
// branch as it is now, as one commit through the path of every mutation:
// authored by the proposal's client, committed by req.By, stale-write
// protected, refused when the checkout has uncommitted changes of the
// notes (LOCAL_CHANGES). A note that does not merge is left open and
// reported in Conflicts; the others are recorded as accepted on the
// proposal, which closes when no note is left open. Repeating an accept
// that was interrupted commits nothing twice. Errors: NOT_FOUND (no open
// proposal, or no such open note), READ_ONLY, LOCAL_CHANGES, CONFLICT.
func (w *Wiki) AcceptProposal(ctx context.Context, req DecideRequest) (*DecideResult, error) {
	if w.opts.ReadOnly {
		return nil, w.readOnlyError()
	}
	st, err := w.openProposal(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	picked, err := st.matchNotes(req.Notes)
	if err != nil {
		return nil, err
	}
	if req.Hunk < 0 || req.Hunk > 0 && len(picked) != 1 {
		return nil, Errorf(CodeInvalidParams, "a hunk is accepted in one note: name it, and hunks count from 1")
	}
	tipSnap, err := w.store.Snapshot(ctx, st.tip)
	if err != nil {
		return nil, err
	}
	sum := st.summary(ProposalsRef + st.id)
	res := &DecideResult{}
	m := Mutation{
		Message:   proposalMessage(req.Comment, sum),
		Caller:    Caller{Client: sum.Client, Tool: "accept_proposal", Author: sum.Author},
		Committer: req.By,
		trailers:  []string{trailerProposal + ": " + st.id, "Wiki-Proposal-Tip: " + st.tip},
		direct:    true,
	}
	partial := "" // the hunk accepted alone, when the note has more
	mres, err := w.mutate(ctx, "accept_proposal", m, func(ctx context.Context, t *txn) error {
		res.Accepted, res.Conflicts, partial = nil, nil, ""
		for _, pf := range picked {
			s, err := t.stageAny(ctx, pf.file)
			if err != nil {
				return err
			}
			n, err := w.mergeProposed(ctx, pf, nil, tipSnap, func(string) ([]byte, bool, error) {
				return s.content, s.content != nil, nil
			})
			if err != nil {
				return err
			}
			if n.State == "conflict" {
				res.Conflicts = append(res.Conflicts, n)
				continue
			}
			if req.Hunk > 0 {
				if n.merged == nil || s.content == nil || n.State == "applied" {
					return Errorf(CodeInvalidParams, "%s is created, deleted or applied whole; accept it without a hunk", pf.file)
				}
				hunks := proposalHunks(pf.file, s.content, n.merged)
				if req.Hunk > len(hunks) {
					return Errorf(CodeNotFound, "%s has %d hunks, not %d", pf.file, len(hunks), req.Hunk).
						WithHint("wikid proposals show %s shows them", st.id)
				}
				if len(hunks) > 1 {
					partial = hunkSummary(hunks[req.Hunk-1])
					if err := t.put(s, applyHunk(s.content, hunks[req.Hunk-1])); err != nil {
						return err
					}
					break
				}
			}
			res.Accepted = append(res.Accepted, pf.file)
			if n.State == "applied" {
				continue
			}
			if n.merged == nil {
				s.content = nil
			} else if err := t.put(s, n.merged); err != nil {
				return err
			}
		}
		t.verb("accept")
		if partial != "" {
			t.subjectLine = "accept: " + notePathOf(picked[0].file) + " " + partial + " (proposal " + st.id + ")"
			return nil
		}
		t.subjectLine = fmt.Sprintf("accept: proposal %s (%d of %d notes)", st.id, len(res.Accepted), len(st.open()))
		if len(res.Accepted) == 1 {
			t.subjectLine = "accept: " + notePathOf(res.Accepted[0]) + " (proposal " + st.id + ")"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Commit, res.Hunk = mres.Commit, partial
	if len(res.Accepted) == 0 {
		res.Open = len(st.open())
		if partial != "" && res.Commit != "" {
			return res, w.recordHunk(ctx, st, picked[0].file, partial, res.Commit, req.By)
		}
		return res, nil
	}
	return res, w.decide(ctx, st, res, req)
}

// RejectProposal records the notes req names (all open notes when none)
// as rejected: the branch does not change. With req.Hunk it drops that
// hunk alone from the one note Notes names (see rejectHunk). Errors:
// NOT_FOUND, READ_ONLY, CONFLICT (the proposal changed meanwhile, or the
// note does not merge and its hunks cannot be told apart).
func (w *Wiki) RejectProposal(ctx context.Context, req DecideRequest) (*DecideResult, error) {
	if w.opts.ReadOnly {
		return nil, w.readOnlyError()
	}
	st, err := w.openProposal(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	picked, err := st.matchNotes(req.Notes)
	if err != nil {
		return nil, err
	}
	if req.Hunk < 0 || req.Hunk > 0 && len(picked) != 1 {
		return nil, Errorf(CodeInvalidParams, "a hunk is rejected in one note: name it, and hunks count from 1")
	}
	if req.Hunk > 0 {
		res, err := w.rejectHunk(ctx, st, picked[0], req)
		if res != nil || err != nil {
			return res, err
		}
		// The note's only hunk: rejected whole, below.
	}
	res := &DecideResult{}
	for _, pf := range picked {
		res.Rejected = append(res.Rejected, pf.file)
	}
	return res, w.decide(ctx, st, res, req)
}

// decide records res's decisions as one commit on the proposal's ref,
// and closes the proposal when no note stays open.
func (w *Wiki) decide(ctx context.Context, st *proposalState, res *DecideResult, req DecideRequest) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	accepted, rejected := st.accepted+len(res.Accepted), st.rejected+len(res.Rejected)
	res.Open = len(st.open()) - len(res.Accepted) - len(res.Rejected)
	var b strings.Builder
	verb := "accept"
	if len(res.Accepted) == 0 {
		verb = "reject"
	}
	fmt.Fprintf(&b, "%s: %d notes of proposal %s\n\n", verb, len(res.Accepted)+len(res.Rejected), st.id)
	if c := strings.TrimSpace(req.Comment); c != "" {
		b.WriteString(c + "\n\n")
	}
	fmt.Fprintf(&b, "%s: %s\n", trailerProposal, st.id)
	for _, f := range res.Accepted {
		fmt.Fprintf(&b, "%s: %s\n", trailerAccepted, f)
	}
	for _, f := range res.Rejected {
		fmt.Fprintf(&b, "%s: %s\n", trailerRejected, f)
	}
	if res.Open == 0 {
		switch {
		case rejected == 0 && !st.hunkRejected:
			res.Closed = "accepted"
		case accepted == 0 && !st.hunkAccepted:
			res.Closed = "rejected"
		default:
			res.Closed = "partly accepted"
		}
		fmt.Fprintf(&b, "%s: %s\n", trailerClosed, res.Closed)
	}
	if res.Commit != "" {
		fmt.Fprintf(&b, "Wiki-Accepted-In: %s\n", res.Commit)
	}
	by := w.signature(req.By)
	ref := ProposalsRef + st.id
	// The decision that closes the proposal goes to the closed ref at
	// once; the open ref is deleted after it, so that a crash in between
	// leaves both, and the next accept or reject of it finds it closed
	// already and removes the open one.
	to, from := ref, st.tip
	if res.Open == 0 {
		to, from = ClosedProposalsRef+st.id, ""
	}
	_, err := w.store.Commit(ctx, CommitRequest{Parent: st.tip, Ref: to, RefFrom: from,
		Author: by, Committer: by, Message: b.String()})
	if errors.Is(err, ErrHeadMoved) {
		return Errorf(CodeConflict, "proposal %s changed while it was decided", st.id).
			WithHint("wikid proposals show %s, then decide again: what was accepted is on the branch and is not committed twice", st.id)
	}
	if err != nil {
		return fmt.Errorf("record the decision on proposal %s: %w", st.id, err)
	}
	if res.Open > 0 {
		return nil
	}
	if err := w.store.SetRef(ctx, ref, st.tip, ""); err != nil {
		return fmt.Errorf("close proposal %s: %w", st.id, err)
	}
	return nil
}

// proposalMessage is the body of an accept's commit: the person's
// comment, then what the proposal was.
func proposalMessage(comment string, sum ProposalSummary) string {
	var b strings.Builder
	if c := strings.TrimSpace(comment); c != "" {
		b.WriteString(c + "\n\n")
	}
	fmt.Fprintf(&b, "Proposed by %s in proposal %s.", sum.Client, sum.ID)
	return b.String()
}

// stageAny stages a file by its exact path (no case folding): the file
// at the transaction's snapshot, or a new one.
func (t *txn) stageAny(ctx context.Context, file string) (*staged, error) {
	if s, ok := t.files[file]; ok {
		return s, nil
	}
	f, content, err := t.snap.Read(ctx, file)
	switch {
	case err == nil:
		return t.add(&staged{file: f.Path, notePath: notePathOf(f.Path), base: f, old: content, content: content}), nil
	case errors.Is(err, ErrNotFound):
		return t.add(&staged{file: file, notePath: notePathOf(file)}), nil
	default:
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
}

// recordHunk records on the proposal's ref that one hunk of file was
// accepted alone, in commit, so that the proposal's outcome counts it: a
// commit without a change to the tree.
func (w *Wiki) recordHunk(ctx context.Context, st *proposalState, file, hunk, commit string, by Identity) error {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	sig := w.signature(by)
	msg := fmt.Sprintf("accept: %s %s (proposal %s)\n\n%s: %s\n%s: %s\nWiki-Accepted-In: %s\n",
		notePathOf(file), hunk, st.id, trailerProposal, st.id, trailerAcceptedHunk, file, commit)
	_, err := w.store.Commit(ctx, CommitRequest{Parent: st.tip, Ref: ProposalsRef + st.id, RefFrom: st.tip,
		Author: sig, Committer: sig, Message: msg})
	if errors.Is(err, ErrHeadMoved) {
		return Errorf(CodeConflict, "proposal %s changed while it was decided", st.id).
			WithHint("wikid proposals show %s: what was accepted is on the branch", st.id)
	}
	if err != nil {
		return fmt.Errorf("record a hunk accepted in proposal %s: %w", st.id, err)
	}
	return nil
}
