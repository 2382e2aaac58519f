package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/textdiff"
)

// proposalHunks returns the hunks of a proposed note's change against ours,
// the branch's content now, as Proposal's Diff shows them (3 lines of
// context), numbered from 1 in that order.
func proposalHunks(file string, ours, merged []byte) []textdiff.Hunk {
	_, hunks := textdiff.UnifiedHunks([]textdiff.FileDiff{{OldPath: file, NewPath: file, Old: ours, New: merged}}, 3)
	if len(hunks) == 0 {
		return nil
	}
	return hunks[0]
}

// applyHunk returns old with one hunk of its diff to another text applied:
// the hunk's old lines replaced by its context and inserted lines.
func applyHunk(old []byte, h textdiff.Hunk) []byte {
	lines := bytes.SplitAfter(old, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	start := h.OldStart - 1 // lines before the hunk
	if h.OldLines == 0 {
		start = h.OldStart
	}
	start = min(max(start, 0), len(lines))
	end := min(start+h.OldLines, len(lines))
	var b bytes.Buffer
	for _, l := range lines[:start] {
		b.Write(l)
	}
	for _, l := range h.Lines {
		if l.Op == textdiff.OpDelete {
			continue
		}
		b.WriteString(l.Text)
		if !l.NoNewline {
			b.WriteByte('\n')
		}
	}
	for _, l := range lines[end:] {
		b.Write(l)
	}
	return b.Bytes()
}

// hunkSummary names a hunk in a message: its header.
func hunkSummary(h textdiff.Hunk) string { return strings.TrimSpace(h.Header()) }

// invertHunk returns the hunk that undoes h: applied to h's new text it
// gives back its old one.
func invertHunk(h textdiff.Hunk) textdiff.Hunk {
	inv := textdiff.Hunk{OldStart: h.NewStart, OldLines: h.NewLines, NewStart: h.OldStart, NewLines: h.OldLines,
		Lines: make([]textdiff.Line, len(h.Lines))}
	for i, l := range h.Lines {
		switch l.Op {
		case textdiff.OpDelete:
			l.Op = textdiff.OpInsert
		case textdiff.OpInsert:
			l.Op = textdiff.OpDelete
		}
		inv.Lines[i] = l
	}
	return inv
}

// rejectHunk drops one hunk of a proposed note's change against the
// branch now, leaving the note open for its others: one commit on the
// proposal's ref, by the person, holds the note's proposed version (as it
// merges with the branch now) without that hunk, with the branch now as
// its Wiki-Base and a Wiki-Rejected-Hunk trailer that makes it the note's
// base from then on. The branch does not change. It returns nil, nil when
// the hunk is the note's only one: the note is rejected whole.
func (w *Wiki) rejectHunk(ctx context.Context, st *proposalState, pf *proposalFile, req DecideRequest) (*DecideResult, error) {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	head, snap, err := w.branchHead(ctx)
	if err != nil {
		return nil, err
	}
	tipSnap, err := w.store.Snapshot(ctx, st.tip)
	if err != nil {
		return nil, err
	}
	n, err := w.mergeProposed(ctx, pf, snap, tipSnap, nil)
	if err != nil {
		return nil, err
	}
	if n.State == "conflict" {
		return nil, Errorf(CodeConflict, "%s does not merge with the branch (%s), so its hunks cannot be rejected one by one", n.Path, n.Why).
			WithHint("reject the note whole, or accept what merges")
	}
	_, ours, err := snap.Read(ctx, pf.file)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("read %s: %w", pf.file, err)
	}
	if ours == nil || n.merged == nil || n.State == "applied" {
		return nil, Errorf(CodeInvalidParams, "%s is created, deleted or applied whole; reject it without a hunk", pf.file)
	}
	hunks := proposalHunks(pf.file, ours, n.merged)
	if req.Hunk > len(hunks) {
		return nil, Errorf(CodeNotFound, "%s has %d hunks, not %d", pf.file, len(hunks), req.Hunk).
			WithHint("wikid proposals show %s shows them", st.id)
	}
	if len(hunks) == 1 {
		return nil, nil
	}
	h := hunks[req.Hunk-1]
	kept := applyHunk(n.merged, invertHunk(h))
	var b strings.Builder
	fmt.Fprintf(&b, "reject: %s %s (proposal %s)\n\n", notePathOf(pf.file), hunkSummary(h), st.id)
	if c := strings.TrimSpace(req.Comment); c != "" {
		b.WriteString(c + "\n\n")
	}
	fmt.Fprintf(&b, "%s: %s\nWiki-Base: %s\n%s: %s\n", trailerProposal, st.id, head.Commit, trailerRejectedHunk, pf.file)
	by := w.signature(req.By)
	_, err = w.store.Commit(ctx, CommitRequest{Parent: st.tip, Ref: ProposalsRef + st.id, RefFrom: st.tip,
		Changes: []FileChange{{Path: pf.file, Content: kept}}, Author: by, Committer: by, Message: b.String()})
	if errors.Is(err, ErrHeadMoved) {
		return nil, Errorf(CodeConflict, "proposal %s changed while it was decided", st.id).
			WithHint("wikid proposals show %s, then decide again", st.id)
	}
	if err != nil {
		return nil, fmt.Errorf("reject a hunk of %s in proposal %s: %w", pf.file, st.id, err)
	}
	return &DecideResult{Hunk: hunkSummary(h), Open: len(st.open())}, nil
}
