package wiki

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Proposals: an assistant's changes that wait for the person.
//
// A client in propose mode (Caller.Propose, or Options.Propose naming its
// client) does not commit to the branch. Each of its sessions has one
// proposal, whose id is made at its first change and stays for the
// session; each change of the session (write, edit, move, delete, restore,
// metadata, batch) is one commit on refs/wikid/proposals/<id>, authored by
// the session's client, with the trailers Wiki-Proposal: <id> and
// Wiki-Base: <the branch's commit the change was computed against>. The
// first commit's parent is the branch as it was then; the working tree, the
// index, the branch and the other sessions see nothing of it, and plain git
// shows it: git log main..refs/wikid/proposals/<id>.
//
// A change in propose mode runs the very code of every mutation (mutate's
// build on a txn): only the snapshot it reads and where its commit goes
// differ. It reads the proposal's view (below) instead of HEAD, and its
// commit goes on the proposal's tip to the proposal's ref, moved with git's
// lock protocol from the tip it read (Store.Commit with CommitRequest.Ref),
// with no checkout update and no derived store told.
//
// The proposal's view is the branch as it is now with the proposal on
// top: each note the proposal changed and that is not decided yet is read
// from the proposal's tip, every other one from HEAD. The proposing
// session reads through it (ForCaller): read, list and what else reads
// the snapshot of w.head; search and the link graph stay at HEAD.
//
// The person decides per note (Accept, Reject). A note's change is merged
// three ways, with textdiff.Merge3, against the branch as it is at accept
// time: base is the note at the Wiki-Base of the proposal's first open
// change of it, theirs the note at the proposal's tip, ours the note on the
// branch now. An accepted change lands through mutate like any other
// (stale-write protection, the checkout's uncommitted edits respected), as
// one commit authored by the proposal's client and committed by the
// person; what cannot merge is reported and stays open, never written.
// Each decision is then one more commit on the proposal's ref, with no
// change to the tree and a Wiki-Accepted: or Wiki-Rejected: trailer per
// file, so that a decided note leaves the review; a later change of the
// same note opens it again. An accept killed between its commit and its
// decision is repeated safely: the merge finds the change on the branch
// already and commits nothing. When no note is open any more the proposal
// closes: its ref moves to refs/wikid/proposals-closed/<id>, its last
// commit saying accepted, partly accepted or rejected, by whom and when.

// ProposalsRef is the prefix of the refs of open proposals.
const ProposalsRef = "refs/wikid/proposals/"

// ClosedProposalsRef is the prefix of the refs of closed proposals.
const ClosedProposalsRef = "refs/wikid/proposals-closed/"

// Trailers of proposal commits.
const (
	trailerProposal = "Wiki-Proposal"
	trailerAccepted = "Wiki-Accepted"
	trailerRejected = "Wiki-Rejected"
	trailerClosed   = "Wiki-Closed"
	// trailerRejectedHunk names the file of a hunk rejected alone: the
	// commit holds the note's proposed version without it.
	trailerRejectedHunk = "Wiki-Rejected-Hunk"
	// trailerAcceptedHunk names the file of a hunk accepted alone.
	trailerAcceptedHunk = "Wiki-Accepted-Hunk"
)

// proposalViewKey is the context key of the proposal a read sees (ForCaller).
type proposalViewKey struct{}

// txnProposal is where a txn in propose mode commits.
type txnProposal struct {
	id string
	// tip is the proposal ref's commit ("" before its first change);
	// branch the branch's commit the change is computed against.
	tip, branch string
}

// proposing reports whether the caller's changes are proposals.
func (w *Wiki) proposing(c Caller) bool {
	return c.Propose || (w.opts.Propose != nil && w.opts.Propose(c.Client))
}

// ForCaller returns ctx for the requests of c: for a proposing session,
// whose proposal exists, reads through it see the branch with the
// proposal on top; for any other caller ctx itself.
func (w *Wiki) ForCaller(ctx context.Context, c Caller) context.Context {
	if !w.proposing(c) {
		return ctx
	}
	if v, ok := w.proposalIDs.Load(sessionKey(c)); ok {
		return context.WithValue(ctx, proposalViewKey{}, v.(string))
	}
	return ctx
}

// ProposalOf returns the id of the proposal of c's session, "" when it
// has made none.
func (w *Wiki) ProposalOf(c Caller) string {
	if v, ok := w.proposalIDs.Load(sessionKey(c)); ok {
		return v.(string)
	}
	return ""
}

func sessionKey(c Caller) string { return c.Client + "\x00" + c.Session }

// proposalID returns the id of the caller's session's proposal, making one
// at its first change.
func (w *Wiki) proposalID(c Caller) string {
	if v, ok := w.proposalIDs.Load(sessionKey(c)); ok {
		return v.(string)
	}
	v, _ := w.proposalIDs.LoadOrStore(sessionKey(c), newProposalID(c.Client, w.opts.Now()))
	return v.(string)
}

// openProposalID is proposalID, except that a session whose proposal was
// closed starts a new one.
func (w *Wiki) openProposalID(ctx context.Context, c Caller) (string, error) {
	id := w.proposalID(c)
	refs, err := w.store.Refs(ctx, ClosedProposalsRef+id)
	if err != nil || refs[ClosedProposalsRef+id] == "" {
		return id, err
	}
	id = newProposalID(c.Client, w.opts.Now())
	w.proposalIDs.Store(sessionKey(c), id)
	return id, nil
}

// newProposalID names a proposal by its client, its time and 4 random
// hex digits: "claude-code-20240601-103000-3f2a".
func newProposalID(client string, now time.Time) string {
	name, _, _ := strings.Cut(client, "/")
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	slug := strings.Trim(b.String(), "-")
	if slug == "" {
		slug = "client"
	}
	var rnd [2]byte
	rand.Read(rnd[:])
	return fmt.Sprintf("%s-%s-%s", slug, now.UTC().Format("20060102-150405"), hex.EncodeToString(rnd[:]))
}

// propose runs build like mutate, on the caller's proposal: build reads
// the proposal's view, and the commit goes to the proposal's ref.
func (w *Wiki) propose(ctx context.Context, tool string, m Mutation, build func(context.Context, *txn) error) (*Result, error) {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	id, err := w.openProposalID(ctx, m.Caller)
	if err != nil {
		return nil, err
	}
	m.trailers = append(slices.Clone(m.trailers), trailerProposal+": "+id)
	var firstBase map[string]string
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		head, snap, err := w.branchHead(ctx)
		if err != nil {
			return nil, err
		}
		tip, err := w.proposalTip(ctx, id)
		if err != nil {
			return nil, err
		}
		view, parent := snap, head.Commit
		if tip != "" {
			if view, err = w.proposalView(ctx, id, head, snap); err != nil {
				return nil, err
			}
			parent = tip
		}
		t := newTxn(w, Head{Branch: ProposalsRef + id, Commit: parent, Bare: head.Bare}, view)
		t.proposal = &txnProposal{id: id, tip: tip, branch: head.Commit}
		if err := build(ctx, t); err != nil {
			return nil, err
		}
		if firstBase == nil {
			firstBase = t.baseVersions()
		} else if err := t.unchangedSince(firstBase); err != nil {
			return nil, err
		}
		res, err := t.finish(ctx, tool, m)
		if errors.Is(err, ErrHeadMoved) && attempt < maxRetries {
			continue
		}
		return res, contractError(err)
	}
}

// SetReviewURL records where the review pages are served, for the answers
// that tell where a proposal is reviewed: a daemon learns its address
// only once it listens.
func (w *Wiki) SetReviewURL(url string) { w.reviewURL.Store(&url) }

// ReviewURL returns where the review pages are served, "" when they are
// not.
func (w *Wiki) ReviewURL() string {
	if url := w.reviewURL.Load(); url != nil {
		return *url
	}
	return w.opts.ReviewURL
}

// proposed words a result as a proposal's.
func (w *Wiki) proposed(res *Result, id string) {
	res.Proposal, res.Branch = id, ""
	where := "wikid proposals show " + id
	if url := w.ReviewURL(); url != "" {
		where += ", or " + strings.TrimSuffix(url, "/") + "/proposals/" + id
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf(
		"proposed, not committed: the change waits in proposal %s for the person to accept or reject it (%s); this session reads it, others do not yet", id, where))
}

// proposalTip returns the commit of proposal id's ref, "" when it has none.
func (w *Wiki) proposalTip(ctx context.Context, id string) (string, error) {
	refs, err := w.store.Refs(ctx, ProposalsRef+id)
	if err != nil {
		return "", fmt.Errorf("read proposal %s: %w", id, err)
	}
	return refs[ProposalsRef+id], nil
}

// proposalView returns HEAD's snapshot with proposal id's open changes on
// top; snap itself when the proposal has no ref.
func (w *Wiki) proposalView(ctx context.Context, id string, head Head, snap Snapshot) (Snapshot, error) {
	tip, err := w.proposalTip(ctx, id)
	if err != nil || tip == "" {
		return snap, err
	}
	st, err := w.proposalState(ctx, id, tip)
	if err != nil {
		return nil, err
	}
	tipSnap, err := w.store.Snapshot(ctx, tip)
	if err != nil {
		return nil, err
	}
	o := &overlay{Snapshot: snap, tip: tipSnap, files: map[string]*File{}}
	for _, pf := range st.files {
		if pf.decided != "" {
			continue
		}
		f, err := tipSnap.Stat(ctx, pf.file)
		switch {
		case errors.Is(err, ErrNotFound):
			o.files[pf.file] = nil
		case err != nil:
			return nil, err
		default:
			o.files[pf.file] = &f
		}
	}
	return o, nil
}

// overlay is a snapshot with some files taken from another (tip), or
// gone. Its Commit is the underlying snapshot's.
type overlay struct {
	Snapshot
	tip   Snapshot
	files map[string]*File // by path; nil: gone
}

func (o *overlay) Stat(ctx context.Context, file string) (File, error) {
	if f, ok := o.files[file]; ok {
		if f == nil {
			return File{}, fmt.Errorf("%s: %w", file, ErrNotFound)
		}
		return *f, nil
	}
	return o.Snapshot.Stat(ctx, file)
}

func (o *overlay) Read(ctx context.Context, file string) (File, []byte, error) {
	if f, ok := o.files[file]; ok {
		if f == nil {
			return File{}, nil, fmt.Errorf("%s: %w", file, ErrNotFound)
		}
		return o.tip.Read(ctx, file)
	}
	return o.Snapshot.Read(ctx, file)
}

func (o *overlay) Files(ctx context.Context, dir string) ([]File, error) {
	files, err := o.Snapshot.Files(ctx, dir)
	if err != nil {
		return nil, err
	}
	out := files[:0:0]
	for _, f := range files {
		if _, ok := o.files[f.Path]; !ok {
			out = append(out, f)
		}
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	for p, f := range o.files {
		if f != nil && (dir == "" || strings.HasPrefix(p, prefix)) {
			out = append(out, *f)
		}
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
