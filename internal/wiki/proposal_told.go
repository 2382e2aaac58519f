package wiki

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// A proposing session is told what the person decided, so that the next
// turn of its conversation knows: SessionProposals says what became of each
// of the session's proposals (the wiki://proposals resource of the wikid
// profile reads it), and ProposalNews returns the decisions the session
// has not been told yet, once (the server puts them in the answer of the
// session's next tool call). A session's proposals are the ids it was on
// at the end of its calls, kept in memory: a restart forgets them, and
// ProposalOutcome still answers by id.

// ProposalOutcome is what became of a proposal.
type ProposalOutcome struct {
	ID string
	// State is "open", "accepted", "partly accepted" or "rejected".
	State string
	// Open, Accepted and Rejected are the note paths in each state.
	Open, Accepted, Rejected []string
	// Decisions are the person's decisions, oldest first.
	Decisions []ProposalDecision
}

// ProposalDecision is one decision on a proposal.
type ProposalDecision struct {
	By Identity
	At time.Time
	// Comment is what the person said, "" when nothing.
	Comment            string
	Accepted, Rejected []string // note paths
	// Commit is the branch's commit of the accepted changes, "" when none.
	Commit string
}

// sessionProposals are the proposal ids of each session, by session key,
// and how many decisions of each it was told.
type sessionProposals struct {
	mu   sync.Mutex
	ids  map[string][]string
	told map[string]int // by session key + "\x00" + id
}

func (w *Wiki) sessionProposals() *sessionProposals {
	sp := &w.proposalSessions
	sp.mu.Lock()
	if sp.ids == nil {
		sp.ids, sp.told = map[string][]string{}, map[string]int{}
	}
	sp.mu.Unlock()
	return sp
}

// remember records the session's current proposal among its ids.
func (w *Wiki) remember(c Caller) []string {
	sp := w.sessionProposals()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	key := sessionKey(c)
	if id := w.ProposalOf(c); id != "" && !slices.Contains(sp.ids[key], id) {
		sp.ids[key] = append(sp.ids[key], id)
	}
	return slices.Clone(sp.ids[key])
}

// SessionProposals returns what became of each proposal of c's session,
// oldest first; none for a caller that proposes nothing.
func (w *Wiki) SessionProposals(ctx context.Context, c Caller) ([]ProposalOutcome, error) {
	if !w.proposing(c) {
		return nil, nil
	}
	var out []ProposalOutcome
	for _, id := range w.remember(c) {
		o, err := w.ProposalOutcome(ctx, id)
		if CodeOf(err) == CodeNotFound {
			continue // pruned, or deleted by hand
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *o)
	}
	return out, nil
}

// ProposalNews returns the proposals of c's session with decisions it has
// not been told of, each with only those decisions, and counts them told.
func (w *Wiki) ProposalNews(ctx context.Context, c Caller) ([]ProposalOutcome, error) {
	all, err := w.SessionProposals(ctx, c)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	sp := w.sessionProposals()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var out []ProposalOutcome
	for _, o := range all {
		key := sessionKey(c) + "\x00" + o.ID
		if n := sp.told[key]; len(o.Decisions) > n {
			o.Decisions = o.Decisions[n:]
			sp.told[key] = n + len(o.Decisions)
			out = append(out, o)
		}
	}
	return out, nil
}

// ProposalOutcome returns what became of proposal id, open or closed.
// An unknown id is NOT_FOUND.
func (w *Wiki) ProposalOutcome(ctx context.Context, id string) (*ProposalOutcome, error) {
	if id == "" || strings.ContainsAny(id, "/ \n") {
		return nil, Errorf(CodeInvalidParams, "%q is not a proposal id", id)
	}
	state := "open"
	tip, err := w.proposalTip(ctx, id)
	if err != nil {
		return nil, err
	}
	if tip == "" {
		closed, err := w.proposalRefs(ctx, ClosedProposalsRef)
		if err != nil {
			return nil, err
		}
		if tip = closed[id]; tip == "" {
			return nil, Errorf(CodeNotFound, "no proposal %q", id).WithHint("it was never made here, or was pruned")
		}
		state = w.closedHow(ctx, tip)
	}
	if v, ok := w.proposalStates.Load("outcome\x00" + tip); ok {
		o := *v.(*ProposalOutcome)
		return &o, nil
	}
	st, err := w.proposalState(ctx, id, tip)
	if err != nil {
		return nil, err
	}
	o := &ProposalOutcome{ID: id, State: state}
	for _, f := range slices.Sorted(func(yield func(string) bool) {
		for f := range st.files {
			if !yield(f) {
				return
			}
		}
	}) {
		p := notePathOf(f)
		switch st.files[f].decided {
		case "accepted":
			o.Accepted = append(o.Accepted, p)
		case "rejected":
			o.Rejected = append(o.Rejected, p)
		default:
			o.Open = append(o.Open, p)
		}
	}
	decisions, err := w.proposalSince(ctx, id, tip, "")
	if err != nil {
		return nil, err
	}
	for _, c := range decisions {
		if !isDecision(c) {
			continue
		}
		d := ProposalDecision{By: Identity{Name: c.Committer.Name, Email: c.Committer.Email}, At: c.Committer.When,
			Comment: decisionComment(c.Message)}
		for _, f := range trailerValues(c.Message, trailerAccepted) {
			d.Accepted = append(d.Accepted, notePathOf(f))
		}
		for _, f := range trailerValues(c.Message, trailerRejected) {
			d.Rejected = append(d.Rejected, notePathOf(f))
		}
		if v := trailerValues(c.Message, "Wiki-Accepted-In"); len(v) > 0 {
			d.Commit = v[0]
		}
		o.Decisions = append(o.Decisions, d)
	}
	// Cached by tip with the states, which bound the cache: commits never
	// change.
	w.proposalStates.Store("outcome\x00"+tip, o)
	c := *o
	return &c, nil
}

// decisionComment is the body of a decision's message between its subject
// and its trailers: the person's comment.
func decisionComment(msg string) string {
	paras := strings.Split(strings.TrimSpace(msg), "\n\n")
	if len(paras) < 3 {
		return ""
	}
	return strings.TrimSpace(strings.Join(paras[1:len(paras)-1], "\n\n"))
}

// Warn adds a warning to the result.
func (r *Result) Warn(s string) { r.Warnings = append(r.Warnings, s) }

// Warn adds a warning to the result.
func (r *ReadResult) Warn(s string) { r.Warnings = append(r.Warnings, s) }

// Told words proposal news for the session that proposed: one sentence a
// decision.
func Told(news []ProposalOutcome) []string {
	var out []string
	for _, o := range news {
		for _, d := range o.Decisions {
			var what []string
			if len(d.Accepted) > 0 {
				what = append(what, "accepted "+strings.Join(d.Accepted, ", "))
			}
			if len(d.Rejected) > 0 {
				what = append(what, "rejected "+strings.Join(d.Rejected, ", "))
			}
			s := fmt.Sprintf("Your proposal %s: %s %s on %s", o.ID, d.By.Name, strings.Join(what, " and "), d.At.UTC().Format(time.DateTime+" UTC"))
			if d.Comment != "" {
				s += fmt.Sprintf(", saying %q", d.Comment)
			}
			switch o.State {
			case "open":
				s += fmt.Sprintf("; %d notes still wait", len(o.Open))
			default:
				s += "; the proposal is closed: " + o.State
			}
			out = append(out, s+".")
		}
	}
	return out
}

// ProposalIDPrefix is how the ids of a client's proposals start
// ("claude-code-" for "claude-code/1.0.3").
func ProposalIDPrefix(client string) string {
	id := newProposalID(client, time.Time{})
	return id[:len(id)-len("20060102-150405-3f2a")]
}
