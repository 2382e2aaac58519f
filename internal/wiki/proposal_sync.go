package wiki

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Proposals travel with sync. A round fetches the other side's proposal
// refs (gitsync), and MergeProposals brings them into this side's, one id
// at a time, without ever losing a commit of either side:
//
//   - a proposal only one side has is taken as it is;
//   - a proposal one side moved on (more changes, or decisions) is fast
//     forwarded on the other;
//   - a proposal both sides moved on is merged when one side only recorded
//     decisions (the person reviewed on one machine while the assistant
//     went on proposing on the other): the decisions are replayed on top of
//     the other side's changes, except those about a note changed again
//     meanwhile, which stays open for review; two sides that both added
//     changes keep this side's, and the round says so;
//   - closed wins: a proposal closed on one side is closed on the other,
//     whatever its open ref there holds. Changes proposed there after what
//     the close saw are not dropped: they are replayed as a new proposal,
//     and the session that made them goes on in it;
//   - a closed proposal past KeepClosedProposals is neither taken nor given
//     (each side prunes it), and one closed differently on both sides
//     keeps this side's close.

// ProposalRefs are one side's proposal refs: the tip of each open and
// closed proposal, by id.
type ProposalRefs struct {
	Open, Closed map[string]string
}

// ProposalMerge is what MergeProposals did here, and what the other side
// is to be given.
type ProposalMerge struct {
	// Push are the refs to set on the other side, by full name: the commit
	// each is to point at, "" to delete it. Each is to be set only if the
	// other side still has what it had (its ProposalRefs).
	Push map[string]string
	// Report says what changed here, or was left alone, one sentence each.
	Report []string
}

// LocalProposals returns this side's proposal refs.
func (w *Wiki) LocalProposals(ctx context.Context) (ProposalRefs, error) {
	open, err := w.proposalRefs(ctx, ProposalsRef)
	if err != nil {
		return ProposalRefs{}, err
	}
	closed, err := w.proposalRefs(ctx, ClosedProposalsRef)
	return ProposalRefs{Open: open, Closed: closed}, err
}

// proposalRefs returns the refs under prefix by id.
func (w *Wiki) proposalRefs(ctx context.Context, prefix string) (map[string]string, error) {
	refs, err := w.store.Refs(ctx, prefix)
	if err != nil {
		return nil, fmt.Errorf("list proposals: %w", err)
	}
	out := make(map[string]string, len(refs))
	for ref, tip := range refs {
		if id := strings.TrimPrefix(ref, prefix); id != "" && !strings.Contains(id, "/") {
			out[id] = tip
		}
	}
	return out, nil
}

// MergeProposals brings another side's proposals, whose commits this
// repository has (a fetch brought them), into this side's refs, as the
// comment above says, and returns what the other side is to be given. A
// read-only wiki changes nothing and gives nothing.
func (w *Wiki) MergeProposals(ctx context.Context, theirs ProposalRefs) (*ProposalMerge, error) {
	res := &ProposalMerge{Push: map[string]string{}}
	if w.opts.ReadOnly {
		return res, nil
	}
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	ours, err := w.LocalProposals(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, m := range []map[string]string{ours.Open, ours.Closed, theirs.Open, theirs.Closed} {
		for id := range m {
			ids[id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := proposalSides{id: id, oO: ours.Open[id], oC: ours.Closed[id], tO: theirs.Open[id], tC: theirs.Closed[id]}
		var err error
		if m.oC != "" || m.tC != "" {
			err = w.mergeClosed(ctx, m, res)
		} else {
			err = w.mergeOpen(ctx, m, res)
		}
		if err != nil {
			return nil, fmt.Errorf("merge proposal %s: %w", id, err)
		}
	}
	return res, nil
}

// proposalSides are one proposal's refs on both sides: o ours, t theirs,
// O open, C closed.
type proposalSides struct{ id, oO, oC, tO, tC string }

// mergeClosed merges a proposal closed on at least one side: closed wins.
func (w *Wiki) mergeClosed(ctx context.Context, m proposalSides, res *ProposalMerge) error {
	open, closed := ProposalsRef+m.id, ClosedProposalsRef+m.id
	switch {
	case m.oC != "" && m.tC != "" && m.oC != m.tC:
		res.Report = append(res.Report, fmt.Sprintf("proposal %s was closed on both sides, differently: this side's close is kept", m.id))
		return nil
	case m.oC == "":
		if w.closedExpired(ctx, m.tC) {
			return nil // pruned here, or soon on both sides
		}
		if err := w.store.SetRef(ctx, closed, "", m.tC); err != nil {
			return err
		}
		how := w.closedHow(ctx, m.tC)
		res.Report = append(res.Report, fmt.Sprintf("proposal %s was %s on the other side: closed here too", m.id, how))
		if m.oO != "" {
			if err := w.closeWins(ctx, m.id, m.oO, m.tC, "here", res); err != nil {
				return err
			}
			if err := w.store.SetRef(ctx, open, m.oO, ""); err != nil {
				return err
			}
		}
	case m.tC == "":
		if w.closedExpired(ctx, m.oC) {
			return nil
		}
		res.Push[closed] = m.oC
	}
	// This side's open ref is stale, from a close interrupted after its
	// decision landed: closed wins.
	if m.oO != "" && m.oC != "" {
		if err := w.closeWins(ctx, m.id, m.oO, m.oC, "here", res); err != nil {
			return err
		}
		if err := w.store.SetRef(ctx, open, m.oO, ""); err != nil {
			return err
		}
	}
	if m.tO != "" {
		c := m.oC
		if c == "" {
			c = m.tC
		}
		// What this side's open ref held is replayed already.
		seen := m.tO == m.oO
		if !seen && m.oO != "" {
			var err error
			if seen, err = w.store.IsAncestor(ctx, m.tO, m.oO); err != nil {
				return err
			}
		}
		if !seen {
			if err := w.closeWins(ctx, m.id, m.tO, c, "on the other side", res); err != nil {
				return err
			}
		}
		res.Push[open] = ""
	}
	return nil
}

// closeWins keeps what open tip has that the close at closed did not see:
// its changes proposed after, replayed as a new proposal here.
func (w *Wiki) closeWins(ctx context.Context, id, tip, closed, where string, res *ProposalMerge) error {
	late, err := w.proposalSince(ctx, id, tip, closed)
	if err != nil {
		return err
	}
	var changes []CommitInfo
	for _, c := range late {
		if !isDecision(c) {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	newID, newTip, err := w.rehome(ctx, id, changes)
	if err != nil {
		return err
	}
	res.Push[ProposalsRef+newID] = newTip
	res.Report = append(res.Report, fmt.Sprintf(
		"proposal %s was closed, but %d changes proposed %s after what the close saw now wait in proposal %s",
		id, len(changes), where, newID))
	return nil
}

// mergeOpen merges a proposal open on one side or both.
func (w *Wiki) mergeOpen(ctx context.Context, m proposalSides, res *ProposalMerge) error {
	ref := ProposalsRef + m.id
	switch {
	case m.oO == m.tO:
		return nil
	case m.tO == "":
		res.Push[ref] = m.oO
		return nil
	case m.oO == "":
		return w.store.SetRef(ctx, ref, "", m.tO)
	}
	if ok, err := w.store.IsAncestor(ctx, m.oO, m.tO); err != nil {
		return err
	} else if ok {
		return w.store.SetRef(ctx, ref, m.oO, m.tO)
	}
	if ok, err := w.store.IsAncestor(ctx, m.tO, m.oO); err != nil {
		return err
	} else if ok {
		res.Push[ref] = m.oO
		return nil
	}
	// Both sides moved on: one of them may have only recorded decisions.
	base, err := w.store.MergeBase(ctx, m.oO, m.tO)
	if err != nil {
		return err
	}
	ours, err := w.proposalSince(ctx, m.id, m.oO, base)
	if err != nil {
		return err
	}
	theirs, err := w.proposalSince(ctx, m.id, m.tO, base)
	if err != nil {
		return err
	}
	onto, decisions, other := m.oO, theirs, ours
	if !allDecisions(theirs) {
		if !allDecisions(ours) {
			res.Report = append(res.Report, fmt.Sprintf("proposal %s changed on both sides: this side's is kept, the other side's stays there", m.id))
			return nil
		}
		onto, decisions, other = m.tO, ours, theirs
	}
	tip, err := w.replayDecisions(ctx, ref, m.oO, onto, decisions, other)
	if err != nil {
		return err
	}
	res.Report = append(res.Report, fmt.Sprintf("proposal %s: the decisions of one side and the changes of the other are merged", m.id))
	closed, err := w.closeIfDecided(ctx, m.id, tip)
	if err != nil {
		return err
	}
	if closed != "" {
		res.Push[ClosedProposalsRef+m.id] = closed
		res.Push[ref] = ""
		return nil
	}
	res.Push[ref] = tip
	return nil
}

// proposalSince returns proposal id's commits from tip back to stop (an
// ancestor, or a close: to the commit both share; "" for all), oldest
// first.
func (w *Wiki) proposalSince(ctx context.Context, id, tip, stop string) ([]CommitInfo, error) {
	base := ""
	if stop != "" {
		var err error
		if base, err = w.store.MergeBase(ctx, tip, stop); err != nil {
			return nil, err
		}
	}
	var out []CommitInfo
	for c := tip; c != "" && c != base && len(out) < maxProposalCommits; {
		info, err := w.store.CommitInfo(ctx, c)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(trailerValues(info.Message, trailerProposal), id) {
			break
		}
		out = append(out, info)
		c = ""
		if len(info.Parents) > 0 {
			c = info.Parents[0]
		}
	}
	slices.Reverse(out)
	return out, nil
}

// isDecision reports whether a proposal's commit records decisions rather
// than a change.
func isDecision(c CommitInfo) bool {
	return len(trailerValues(c.Message, trailerAccepted)) > 0 || len(trailerValues(c.Message, trailerRejected)) > 0
}

func allDecisions(cs []CommitInfo) bool {
	for _, c := range cs {
		if !isDecision(c) {
			return false
		}
	}
	return true
}

// replayDecisions records decisions again on top of onto, moving ref from
// from. A decision about a file that other changed is left out: the
// person has not seen that change.
func (w *Wiki) replayDecisions(ctx context.Context, ref, from, onto string, decisions, other []CommitInfo) (string, error) {
	changed := map[string]bool{}
	for _, c := range other {
		if isDecision(c) {
			continue
		}
		parent := ""
		if len(c.Parents) > 0 {
			parent = c.Parents[0]
		}
		chs, err := w.store.Changes(ctx, parent, c.ID)
		if err != nil {
			return "", err
		}
		for _, ch := range chs {
			changed[ch.Path] = true
		}
	}
	tip := onto
	for _, d := range decisions {
		msg, kept := dropDecided(d.Message, changed)
		if kept == 0 {
			continue
		}
		id, err := w.store.Commit(ctx, CommitRequest{Parent: tip, Ref: ref, RefFrom: from,
			Author: d.Author, Committer: d.Committer, Message: msg})
		if err != nil {
			return "", err
		}
		tip, from = id, id
	}
	if tip == onto && from != onto {
		if err := w.store.SetRef(ctx, ref, from, onto); err != nil {
			return "", err
		}
	}
	return tip, nil
}

// dropDecided takes out of a decision's message the decisions about the
// files in drop, and returns how many decisions it keeps.
func dropDecided(msg string, drop map[string]bool) (string, int) {
	var b strings.Builder
	kept := 0
	for _, line := range strings.SplitAfter(msg, "\n") {
		trimmed := strings.TrimSpace(line)
		for _, key := range []string{trailerAccepted, trailerRejected} {
			if f, ok := strings.CutPrefix(trimmed, key+": "); ok {
				if drop[strings.TrimSpace(f)] {
					line = ""
				} else {
					kept++
				}
			}
		}
		b.WriteString(line)
	}
	return b.String(), kept
}

// closeIfDecided closes proposal id at tip when it has no open note left
// (both sides' decisions together decided everything), and returns the
// closed ref's commit, "" when it stays open.
func (w *Wiki) closeIfDecided(ctx context.Context, id, tip string) (string, error) {
	st, err := w.proposalState(ctx, id, tip)
	if err != nil || len(st.open()) > 0 {
		return "", err
	}
	how := "partly accepted"
	switch {
	case st.rejected == 0:
		how = "accepted"
	case st.accepted == 0:
		how = "rejected"
	}
	last := st.last
	msg := fmt.Sprintf("close: proposal %s\n\n%s: %s\n%s: %s\n", id, trailerProposal, id, trailerClosed, how)
	c, err := w.store.Commit(ctx, CommitRequest{Parent: tip, Ref: ClosedProposalsRef + id,
		Author: last.Author, Committer: last.Committer, Message: msg})
	if err != nil {
		return "", err
	}
	return c, w.store.SetRef(ctx, ProposalsRef+id, tip, "")
}

// rehome replays a closed proposal's late changes, oldest first, as a new
// proposal of the same client, and moves the sessions of the old id to it.
func (w *Wiki) rehome(ctx context.Context, id string, changes []CommitInfo) (newID, tip string, err error) {
	client := ""
	if v := trailerValues(changes[0].Message, "Wiki-Client"); len(v) > 0 {
		client = v[0]
	}
	newID = newProposalID(client, w.opts.Now())
	ref, from := ProposalsRef+newID, ""
	for i, c := range changes {
		parent := ""
		if len(c.Parents) > 0 {
			parent = c.Parents[0]
		}
		chs, err := w.store.Changes(ctx, parent, c.ID)
		if err != nil {
			return "", "", err
		}
		snap, err := w.store.Snapshot(ctx, c.ID)
		if err != nil {
			return "", "", err
		}
		for j := range chs {
			chs[j].OldBlob, chs[j].NewBlob = "", ""
			if chs[j].Delete {
				continue
			}
			if _, chs[j].Content, err = snap.Read(ctx, chs[j].Path); err != nil {
				return "", "", err
			}
		}
		on := from
		if i == 0 {
			on = parent
		}
		msg := strings.ReplaceAll(c.Message, trailerProposal+": "+id+"\n", trailerProposal+": "+newID+"\n")
		next, err := w.store.Commit(ctx, CommitRequest{Parent: on, Ref: ref, RefFrom: from, Changes: chs,
			Author: c.Author, Committer: c.Committer, Message: msg})
		if errors.Is(err, ErrHeadMoved) {
			return "", "", Errorf(CodeConflict, "proposal %s moved while it was replayed", newID)
		}
		if err != nil {
			return "", "", err
		}
		from = next
	}
	w.proposalIDs.Range(func(k, v any) bool {
		if v.(string) == id {
			w.proposalIDs.Store(k, newID)
		}
		return true
	})
	return newID, from, nil
}

// closedHow returns how a closed proposal was closed: "accepted",
// "partly accepted", "rejected", or "closed".
func (w *Wiki) closedHow(ctx context.Context, tip string) string {
	if info, err := w.store.CommitInfo(ctx, tip); err == nil {
		if v := trailerValues(info.Message, trailerClosed); len(v) > 0 {
			return v[0]
		}
	}
	return "closed"
}
