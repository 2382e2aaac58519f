package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// maxProposalCommits bounds the walk of a proposal's commits.
const maxProposalCommits = 100_000

// proposalState is what a proposal's commits say, oldest first: the files
// it changed, each with the branch commit its first open change was
// computed against, and the decisions taken.
type proposalState struct {
	id, tip string
	first   CommitInfo // the oldest commit
	last    CommitInfo
	commits int
	files   map[string]*proposalFile
	// accepted and rejected count the files decided so.
	accepted, rejected int
	// hunkAccepted and hunkRejected say whether a hunk was decided alone,
	// which makes the outcome partly accepted unless the other way round.
	hunkAccepted, hunkRejected bool
	// chain is the proposal's commits, oldest first.
	chain []CommitInfo
	// openFiles caches open's answer.
	openOnce  sync.Once
	openFiles []*proposalFile
	// lines caches the count of ProposalLines.
	lines proposalLines
}

// proposalFile is one file a proposal changed.
type proposalFile struct {
	file string
	// base is the branch's commit the proposal's first open change of the
	// file was computed against.
	base string
	// decided is "accepted", "rejected" or "" while open.
	decided string
}

// trailerValues returns the values of a trailer key in a commit message.
func trailerValues(msg, key string) []string {
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		if v, ok := strings.CutPrefix(line, key+": "); ok {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

// proposalState walks proposal id's commits back from tip, along first
// parents, while they carry its Wiki-Proposal trailer. It is cached by
// tip: commits never change.
func (w *Wiki) proposalState(ctx context.Context, id, tip string) (*proposalState, error) {
	if v, ok := w.proposalStates.Load(tip); ok {
		return v.(*proposalState), nil
	}
	var chain []CommitInfo
	for c := tip; c != "" && len(chain) < maxProposalCommits; {
		info, err := w.store.CommitInfo(ctx, c)
		if err != nil {
			return nil, fmt.Errorf("read proposal %s: %w", id, err)
		}
		if !slices.Contains(trailerValues(info.Message, trailerProposal), id) {
			break
		}
		chain = append(chain, info)
		c = ""
		if len(info.Parents) > 0 {
			c = info.Parents[0]
		}
	}
	if len(chain) == 0 {
		return nil, Errorf(CodeNotFound, "%s holds no commit of proposal %s", short(tip), id)
	}
	slices.Reverse(chain)
	st := &proposalState{id: id, tip: tip, first: chain[0], last: chain[len(chain)-1], commits: len(chain), chain: chain, files: map[string]*proposalFile{}}
	for _, info := range chain {
		decided := false
		for _, k := range []struct{ key, state string }{{trailerAccepted, "accepted"}, {trailerRejected, "rejected"}} {
			for _, f := range trailerValues(info.Message, k.key) {
				decided = true
				if pf := st.files[f]; pf != nil && pf.decided == "" {
					pf.decided = k.state
				}
			}
		}
		if decided {
			continue
		}
		parent := ""
		if len(info.Parents) > 0 {
			parent = info.Parents[0]
		}
		changes, err := w.store.Changes(ctx, parent, info.ID)
		if err != nil {
			return nil, fmt.Errorf("read proposal %s: %w", id, err)
		}
		base := ""
		if b := trailerValues(info.Message, "Wiki-Base"); len(b) > 0 {
			base = b[0]
		}
		for _, ch := range changes {
			if pf := st.files[ch.Path]; pf == nil || pf.decided != "" {
				st.files[ch.Path] = &proposalFile{file: ch.Path, base: base}
			}
		}
		st.hunkAccepted = st.hunkAccepted || len(trailerValues(info.Message, trailerAcceptedHunk)) > 0
		st.hunkRejected = st.hunkRejected || len(trailerValues(info.Message, trailerRejectedHunk)) > 0
		// A hunk rejected: the note's proposed version was computed
		// anew against the branch at this commit's base.
		for _, f := range trailerValues(info.Message, trailerRejectedHunk) {
			if pf := st.files[f]; pf != nil && pf.decided == "" && base != "" {
				pf.base = base
			}
		}
	}
	for _, pf := range st.files {
		switch pf.decided {
		case "accepted":
			st.accepted++
		case "rejected":
			st.rejected++
		}
	}
	n := 0
	w.proposalStates.Range(func(any, any) bool { n++; return n <= 1000 })
	if n > 1000 {
		w.proposalStates.Clear()
	}
	w.proposalStates.Store(tip, st)
	return st, nil
}

// open returns the files still open, sorted; made once, as a state
// never changes once made (callers must not change the slice).
func (st *proposalState) open() []*proposalFile {
	st.openOnce.Do(func() {
		for _, pf := range st.files {
			if pf.decided == "" {
				st.openFiles = append(st.openFiles, pf)
			}
		}
		sort.Slice(st.openFiles, func(i, j int) bool { return st.openFiles[i].file < st.openFiles[j].file })
	})
	return st.openFiles
}

// ProposalSummary is one proposal as a list shows it.
type ProposalSummary struct {
	ID  string
	Ref string
	// Tip is the commit the proposal's ref points at.
	Tip string
	// Client is the proposing client ("claude-code/1.0.3"), Author its
	// identity.
	Client  string
	Author  Identity
	Created time.Time
	Updated time.Time
	Commits int
	// Open counts the notes still waiting for a decision, Accepted and
	// Rejected those decided.
	Open, Accepted, Rejected int
	// Closed is "accepted", "partly accepted" or "rejected" for a closed
	// proposal, "" for an open one; ClosedBy is who closed it, at Updated.
	Closed   string
	ClosedBy Identity
}

// Proposals lists the open proposals, newest first, and with closed set
// the closed ones too. It reads each proposal's commits, never its diffs.
func (w *Wiki) Proposals(ctx context.Context, closed bool) ([]ProposalSummary, error) {
	prefixes := []string{ProposalsRef}
	if closed {
		prefixes = append(prefixes, ClosedProposalsRef)
	}
	var out []ProposalSummary
	for _, prefix := range prefixes {
		refs, err := w.store.Refs(ctx, prefix)
		if err != nil {
			return nil, fmt.Errorf("list proposals: %w", err)
		}
		for ref, tip := range refs {
			id := strings.TrimPrefix(ref, prefix)
			st, err := w.proposalState(ctx, id, tip)
			if errors.Is(err, ErrNotFound) {
				continue // a ref of someone else's making
			}
			if err != nil {
				return nil, err
			}
			s := st.summary(ref)
			if prefix == ClosedProposalsRef {
				s.Closed = "closed"
				if v := trailerValues(st.last.Message, trailerClosed); len(v) > 0 {
					s.Closed = v[0]
				}
				s.ClosedBy = Identity{Name: st.last.Author.Name, Email: st.last.Author.Email}
			}
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Updated.Equal(out[j].Updated) {
			return out[i].Updated.After(out[j].Updated)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func (st *proposalState) summary(ref string) ProposalSummary {
	client := ""
	if v := trailerValues(st.first.Message, "Wiki-Client"); len(v) > 0 {
		client = v[0]
	}
	return ProposalSummary{ID: st.id, Ref: ref, Tip: st.tip, Client: client,
		Author:  Identity{Name: st.first.Author.Name, Email: st.first.Author.Email},
		Created: st.first.Author.When, Updated: st.last.Committer.When, Commits: st.commits,
		Open: len(st.open()), Accepted: st.accepted, Rejected: st.rejected}
}

// Proposal is an open proposal with each open note's change against the
// branch as it is now.
type Proposal struct {
	ProposalSummary
	// Branch is the branch's commit the notes are compared with.
	Branch string
	// Notes are the open notes, in path order: all of them, or the page
	// ProposalPage asked for, which starts after Offset others (Open
	// counts them all).
	Notes  []ProposalNote
	Offset int
	// Changes are the session's newest commits that changed notes, newest
	// first, at most 50 of ChangeCount: what the assistant said it did.
	Changes     []ProposalChange
	ChangeCount int
}

// ProposalNote is one open note of a proposal, merged three ways with the
// branch as it is now.
type ProposalNote struct {
	Path string // note path
	File string // file path
	// Action is what accepting it does to the branch now: created,
	// modified or deleted.
	Action Action
	// State is "ready" (it merges), "conflict" (the person changed the same
	// lines, or deleted a note the proposal edits) or "applied" (the branch
	// holds the change already).
	State     string
	Additions int
	Deletions int
	// Diff is the unified diff from the branch to what accepting gives
	// (for a conflict: to the proposal's version).
	Diff string
	// Hunks are Diff's hunks, numbered from 1 in this order by a decision
	// on one hunk (DecideRequest.Hunk).
	Hunks     []DiffHunk
	Conflicts []textdiff.Conflict
	// Why says what does not merge, for a conflict.
	Why string

	merged []byte // what accepting writes; nil deletes
}

// Proposal returns open proposal id with each open note merged against
// the branch now. An unknown id is NOT_FOUND.
func (w *Wiki) Proposal(ctx context.Context, id string) (*Proposal, error) {
	return w.ProposalPage(ctx, ProposalPageRequest{ID: id})
}

// openProposal returns the state of open proposal id; NOT_FOUND when it has
// no ref (never made, closed, or deleted by hand).
func (w *Wiki) openProposal(ctx context.Context, id string) (*proposalState, error) {
	if id == "" || strings.ContainsAny(id, "/ \n") {
		return nil, Errorf(CodeInvalidParams, "%q is not a proposal id", id)
	}
	tip, err := w.proposalTip(ctx, id)
	if err != nil {
		return nil, err
	}
	closed, err := w.store.Refs(ctx, ClosedProposalsRef+id)
	if err != nil {
		return nil, err
	}
	if c := closed[ClosedProposalsRef+id]; c != "" && tip != "" {
		// A close interrupted after its decision landed: finish it.
		if info, err := w.store.CommitInfo(ctx, c); err == nil && len(info.Parents) > 0 && info.Parents[0] == tip && !w.opts.ReadOnly {
			if err := w.store.SetRef(ctx, ProposalsRef+id, tip, ""); err != nil {
				return nil, fmt.Errorf("close proposal %s: %w", id, err)
			}
			tip = ""
		}
	}
	if tip == "" {
		e := Errorf(CodeNotFound, "no open proposal %q", id)
		if closed[ClosedProposalsRef+id] != "" {
			e = Errorf(CodeNotFound, "proposal %q is closed", id)
		}
		return nil, e.WithHint("wikid proposals list shows the open proposals")
	}
	return w.proposalState(ctx, id, tip)
}

// mergeProposed merges one proposed file three ways: base at the branch
// commit its change was computed against, ours from snap (the branch now,
// or a txn's view when ours is not nil), theirs at the proposal's tip.
func (w *Wiki) mergeProposed(ctx context.Context, pf *proposalFile, snap, tip Snapshot, ours func(string) ([]byte, bool, error)) (ProposalNote, error) {
	n := ProposalNote{File: pf.file, Path: notePathOf(pf.file)}
	read := func(s Snapshot) ([]byte, bool, error) {
		_, b, err := s.Read(ctx, pf.file)
		if errors.Is(err, ErrNotFound) {
			return nil, false, nil
		}
		return b, err == nil, err
	}
	base, hasBase := []byte(nil), false
	if pf.base != "" {
		bs, err := w.store.Snapshot(ctx, pf.base)
		if err != nil {
			return n, fmt.Errorf("read the base of %s: %w", pf.file, err)
		}
		if base, hasBase, err = read(bs); err != nil {
			return n, err
		}
	}
	if ours == nil {
		ours = func(string) ([]byte, bool, error) { return read(snap) }
	}
	o, hasO, err := ours(pf.file)
	if err != nil {
		return n, err
	}
	t, hasT, err := read(tip)
	if err != nil {
		return n, err
	}
	same := func(a []byte, ha bool, b []byte, hb bool) bool { return ha == hb && bytes.Equal(a, b) }
	var merged []byte
	hasM := false
	switch {
	case same(o, hasO, t, hasT), same(base, hasBase, t, hasT):
		n.State = "applied"
		merged, hasM = o, hasO
	case same(base, hasBase, o, hasO):
		n.State, merged, hasM = "ready", t, hasT
	case hasBase && hasO && hasT:
		m, conflicts, err := textdiff.Merge3(base, o, t)
		if err != nil {
			n.State, n.Conflicts = "conflict", conflicts
			n.Why = fmt.Sprintf("the branch changed the same lines (%d places)", len(conflicts))
		} else {
			n.State, merged, hasM = "ready", m, true
		}
	case !hasO:
		n.State, n.Why = "conflict", "the note was deleted on the branch after it was proposed"
	case !hasT:
		n.State, n.Why = "conflict", "the proposal deletes the note, which the branch changed since"
	default:
		n.State, n.Why = "conflict", "the branch created the note too, with other content"
	}
	to, hasTo := merged, hasM
	if n.State == "conflict" {
		to, hasTo = t, hasT
	}
	switch {
	case !hasO && hasTo:
		n.Action = ActionCreated
	case hasO && !hasTo:
		n.Action = ActionDeleted
	default:
		n.Action = ActionModified
	}
	d := textdiff.FileDiff{Old: o, New: to}
	if hasO {
		d.OldPath = pf.file
	}
	if hasTo {
		d.NewPath = pf.file
	}
	if !same(o, hasO, to, hasTo) {
		var hunks [][]textdiff.Hunk
		n.Diff, hunks = textdiff.UnifiedHunks([]textdiff.FileDiff{d}, 3)
		if len(hunks) > 0 {
			n.Hunks = diffHunks(hunks[0])
		}
		s := textdiff.Count(o, to)
		n.Additions, n.Deletions = s.Additions, s.Deletions
	}
	if n.State != "conflict" {
		n.merged = merged
		if hasM && merged == nil {
			n.merged = []byte{}
		}
	}
	return n, nil
}

// matchNotes picks the open files a caller named by note or file path
// (all of them when names is empty); a name no open file answers is
// NOT_FOUND.
func (st *proposalState) matchNotes(names []string) ([]*proposalFile, error) {
	open := st.open()
	if len(names) == 0 {
		if len(open) == 0 {
			return nil, Errorf(CodeNotFound, "proposal %s has no open note", st.id)
		}
		return open, nil
	}
	var out []*proposalFile
	for _, name := range names {
		found := false
		for _, pf := range open {
			if pf.file == name || notePathOf(pf.file) == strings.TrimSuffix(note.Normalize(name), ".md") {
				found = true
				if !slices.Contains(out, pf) {
					out = append(out, pf)
				}
			}
		}
		if !found {
			return nil, Errorf(CodeNotFound, "proposal %s has no open note %q", st.id, name).
				WithHint("wikid proposals show %s lists its open notes", st.id)
		}
	}
	return out, nil
}
