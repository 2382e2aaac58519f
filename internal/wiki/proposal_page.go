package wiki

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/textdiff"
)

// ProposalPageRequest asks for one page of an open proposal's notes.
type ProposalPageRequest struct {
	ID string
	// Offset is how many open notes, in path order, come before the page;
	// Limit the most notes on it, 0 for all of them.
	Offset, Limit int
}

// ProposalPage returns open proposal req.ID with the open notes of one
// page merged three ways with the branch now and diffed; the notes of
// other pages are neither read nor diffed, so that a proposal of 100,000
// notes opens as fast as one of Limit. Open counts every open note. An
// unknown id is NOT_FOUND.
func (w *Wiki) ProposalPage(ctx context.Context, req ProposalPageRequest) (*Proposal, error) {
	if req.Offset < 0 || req.Limit < 0 {
		return nil, Errorf(CodeInvalidParams, "offset %d, limit %d: want 0 or more", req.Offset, req.Limit)
	}
	st, err := w.openProposal(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	head, snap, err := w.branchHead(ctx)
	if err != nil {
		return nil, err
	}
	tipSnap, err := w.store.Snapshot(ctx, st.tip)
	if err != nil {
		return nil, err
	}
	open := st.open()
	p := &Proposal{ProposalSummary: st.summary(ProposalsRef + req.ID), Branch: head.Commit, Offset: min(req.Offset, len(open))}
	p.Changes, p.ChangeCount = st.proposalChanges(maxProposalChanges)
	page := open[p.Offset:]
	if req.Limit > 0 && len(page) > req.Limit {
		page = page[:req.Limit]
	}
	for _, pf := range page {
		n, err := w.mergeProposed(ctx, pf, snap, tipSnap, nil)
		if err != nil {
			return nil, err
		}
		p.Notes = append(p.Notes, n)
	}
	return p, nil
}

// proposalLines is a proposal's count of lines, made once per tip.
type proposalLines struct {
	mu                   sync.Mutex
	done                 bool
	additions, deletions int
}

// ProposalLines counts the lines open proposal id's open notes add and
// delete, each against the branch's version its change was computed on
// (not the branch now: that is ProposalPage's work). It reads two versions
// of every open note, so it counts only when at most max are open, and
// says ok false otherwise; a count is kept for the proposal's tip.
func (w *Wiki) ProposalLines(ctx context.Context, id string, max int) (additions, deletions int, ok bool, err error) {
	st, err := w.openProposal(ctx, id)
	if err != nil {
		return 0, 0, false, err
	}
	st.lines.mu.Lock()
	defer st.lines.mu.Unlock()
	if st.lines.done {
		return st.lines.additions, st.lines.deletions, true, nil
	}
	open := st.open()
	if len(open) > max {
		return 0, 0, false, nil
	}
	tipSnap, err := w.store.Snapshot(ctx, st.tip)
	if err != nil {
		return 0, 0, false, err
	}
	read := func(s Snapshot, file string) ([]byte, error) {
		_, b, err := s.Read(ctx, file)
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		return b, err
	}
	bases := map[string]Snapshot{}
	for _, pf := range open {
		var old []byte
		if pf.base != "" {
			bs, ok := bases[pf.base]
			if !ok {
				if bs, err = w.store.Snapshot(ctx, pf.base); err != nil {
					return 0, 0, false, err
				}
				bases[pf.base] = bs
			}
			if old, err = read(bs, pf.file); err != nil {
				return 0, 0, false, err
			}
		}
		now, err := read(tipSnap, pf.file)
		if err != nil {
			return 0, 0, false, err
		}
		s := textdiff.Count(old, now)
		additions, deletions = additions+s.Additions, deletions+s.Deletions
	}
	st.lines.done, st.lines.additions, st.lines.deletions = true, additions, deletions
	return additions, deletions, true, nil
}

// maxProposalChanges bounds the changes a proposal's page lists.
const maxProposalChanges = 50

// ProposalChange is one commit of a proposal's session: the assistant's
// own words for a change.
type ProposalChange struct {
	ID            string
	Subject, Body string
	Tool          string
	When          time.Time
}

// proposalChanges returns the newest of the proposal's commits that
// changed notes (its decisions left out), newest first, and how many
// there are.
func (st *proposalState) proposalChanges(limit int) (out []ProposalChange, total int) {
	for i := len(st.chain) - 1; i >= 0; i-- {
		info := st.chain[i]
		subject, body, trailers := splitMessage(info.Message)
		tool, decision := "", false
		for _, t := range trailers {
			switch t.Key {
			case "Wiki-Tool":
				tool = t.Value
			case trailerAccepted, trailerRejected, trailerAcceptedHunk, trailerRejectedHunk, trailerClosed:
				decision = true
			}
		}
		if decision {
			continue
		}
		total++
		if len(out) < limit {
			out = append(out, ProposalChange{ID: info.ID, Subject: subject, Body: body, Tool: tool, When: info.Author.When})
		}
	}
	return out, total
}
