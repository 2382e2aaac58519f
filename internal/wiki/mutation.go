package wiki

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/textdiff"
	"github.com/wikid/wikid/internal/wikierr"
)

// maxRetries bounds how often a mutation is rebuilt on a HEAD that moved
// underneath it (someone else committed in the meantime).
const maxRetries = 8

// Mutation holds the parameters every mutating request shares.
type Mutation struct {
	// ExpectedVersion, if set, is the version (blob id, or a prefix of at
	// least 7 hex digits) the note must still have; otherwise CONFLICT.
	ExpectedVersion string
	// DryRun computes the change and its diff but commits nothing.
	DryRun bool
	// Message says why; it becomes the commit body.
	Message string
	// Caller says who acts. Inside apply_changes only the batch's counts.
	Caller Caller
	// Committer, when set, is the commit's committer instead of
	// Options.Committer: the person who accepts a proposal.
	Committer Identity
	// trailers are added to the commit message's trailers.
	trailers []string
	// direct commits to the branch even for a proposing caller: the
	// acceptance of a proposal.
	direct bool
}

// Caller identifies the client on whose behalf a mutation runs.
type Caller struct {
	// Client is the client's name and version, recorded in the Wiki-Client
	// trailer ("claude-code/1.0.3", "cli").
	Client string
	// Tool is what the client asked by, in its front end's words (an MCP
	// tool, a command), recorded in the Wiki-Tool trailer; "" records the
	// operation ("write", "move").
	Tool string
	// Author is the commit author; zero means Options.Author.
	Author Identity
	// Session names the client's session (an MCP session id); a proposing
	// client has one proposal per session. "" is one session per Client.
	Session string
	// Propose makes the caller's changes proposals whatever
	// Options.Propose says (wikid serve --propose).
	Propose bool
}

// Action says what a mutation did to one note.
type Action string

// Actions.
const (
	ActionCreated  Action = "created"
	ActionModified Action = "modified"
	ActionDeleted  Action = "deleted"
	ActionMoved    Action = "moved"
)

// NoteChange is what a mutation did to one note.
type NoteChange struct {
	Path   string
	File   string
	Action Action
	// From is the note's old path when it moved.
	From       string
	OldVersion string
	Version    string
	Additions  int
	Deletions  int
	// Title is the note's title as changed; "" for a deleted note.
	Title string
}

// Result is the outcome of a mutation.
type Result struct {
	// Commit is the new commit; empty on a dry run or when nothing changed.
	Commit string
	// Branch is the branch the commit went to ("main"), with Commit.
	Branch string
	// Proposal is the id of the proposal the commit went to instead of
	// the branch (see Proposal); Branch is then "".
	Proposal string
	DryRun   bool
	Changes  []NoteChange
	// Diff is the unified diff of the change; set on a dry run.
	Diff string
	// Files are the files of Diff, in its order, each with its hunks: the
	// same diff as structure, for a front end to show; set on a dry run.
	Files   []DiffFile
	Risk    string
	Summary string
	// Metadata holds the frontmatter before and after, for update_metadata.
	Metadata *MetadataChange
	// LinksUpdated lists the notes whose links a move rewrote to follow
	// the moved notes; BrokenLinks the notes whose links a move or delete
	// leaves naming a note that is gone (see LinkedNote).
	LinksUpdated []LinkedNote
	BrokenLinks  []LinkedNote
	Warnings     []string
}

// MetadataChange is a note's frontmatter before and after a change.
type MetadataChange struct {
	Before map[string]any
	After  map[string]any
}

// mutate runs build on a transaction over HEAD and commits what it staged as
// one commit. build must be repeatable: if HEAD moves before the commit lands,
// build runs again on the new HEAD, and the mutation fails with CONFLICT if a
// note it touches changed in between.
func (w *Wiki) mutate(ctx context.Context, tool string, m Mutation, build func(context.Context, *txn) error) (*Result, error) {
	if w.opts.ReadOnly {
		return nil, w.readOnlyError()
	}
	if !m.direct && w.proposing(m.Caller) {
		return w.propose(ctx, tool, m, build)
	}
	w.follower.begin()
	defer w.follower.end()
	w.writeMu.Lock()
	defer w.writeMu.Unlock()

	var firstBase map[string]string
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		head, snap, err := w.branchHead(ctx)
		if err != nil {
			return nil, err
		}
		if !m.DryRun {
			if head.Detached {
				return nil, contractError(ErrDetached)
			}
			if err := w.onBranch(ctx, head); err != nil {
				return nil, err
			}
		}
		t := newTxn(w, head, snap)
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
			w.log.Debug("HEAD moved under a mutation; retrying", "tool", tool, "attempt", attempt+1)
			continue
		}
		return res, contractError(err)
	}
}

// contractError gives the known conditions a mutation can end on without a
// contract code their code: a detached HEAD is READ_ONLY, a branch that kept
// moving under every retry is CONFLICT. errors.Is still finds the sentinel.
// Lock files in the way are LOCKED, a checkout with uncommitted changes
// LOCAL_CHANGES, and a full disk NO_SPACE, from the store itself.
func contractError(err error) error {
	if err == nil || CodeOf(err) != CodeInternal {
		return err
	}
	var e *Error
	switch {
	case errors.Is(err, ErrDetached):
		e = Errorf(CodeReadOnly, "HEAD is detached, so the wiki cannot be changed").
			WithHint("check out a branch in the repository, then retry")
	case errors.Is(err, ErrHeadMoved):
		e = Errorf(CodeConflict, "the branch moved under the change %d times in a row", maxRetries+1).
			WithHint("another program keeps committing to the branch; retry when it is done")
	default:
		return err
	}
	return wikierr.WithCause(e, err)
}

// onBranch returns an error of code OTHER_BRANCH unless HEAD points at the
// branch the wiki writes to. A change made while a person has another
// branch checked out for a moment would land there, and vanish from the
// notes when they switch back. When the wiki's branch no longer exists,
// the one checked out becomes the wiki's: nothing can vanish with a
// branch that is gone already. The caller holds writeMu.
func (w *Wiki) onBranch(ctx context.Context, head Head) error {
	mine := w.writeBranch()
	if mine == "" || head.Branch == mine {
		return nil
	}
	if _, err := w.store.ResolveRevision(ctx, mine); errors.Is(err, ErrNotFound) {
		w.log.Info("the wiki's branch is gone: writing to the one checked out", "gone", mine, "branch", head.Branch)
		w.branch.Store(head.Branch)
		return nil
	}
	e := Errorf(CodeOtherBranch, "the checkout is on branch %s, and the wiki writes to %s", BranchName(head.Branch), BranchName(mine))
	e.Details = map[string]any{"branch": BranchName(head.Branch), "wiki_branch": BranchName(mine)}
	return e.WithHint("switch the checkout back to %s (git switch %s), then retry; to write to %s instead, restart wikid while it is checked out",
		BranchName(mine), BranchName(mine), BranchName(head.Branch))
}

// writeBranch returns the branch the wiki writes to (a full ref name), ""
// for whichever is checked out.
func (w *Wiki) writeBranch() string { return w.branch.Load().(string) }

// BranchName returns a branch's short name: "main" for "refs/heads/main".
func BranchName(ref string) string { return strings.TrimPrefix(ref, "refs/heads/") }

// finish turns the staged changes into a result, and for a real run into a
// commit.
func (t *txn) finish(ctx context.Context, tool string, m Mutation) (*Result, error) {
	changed := t.changed()
	res := &Result{DryRun: m.DryRun, Changes: make([]NoteChange, 0, len(changed)), Metadata: t.metadata}
	diffs := make([]textdiff.FileDiff, 0, len(changed))
	files := make([]FileChange, 0, len(changed))
	sources := make([]*staged, 0, len(changed)) // the staged file of each change
	for _, s := range changed {
		files = append(files, FileChange{Path: s.file, Delete: s.content == nil, Content: s.content})
		if d, c, ok := t.change(s); ok {
			diffs = append(diffs, d)
			res.Changes = append(res.Changes, c)
			sources = append(sources, s)
		}
	}
	risk, summary := textdiff.Assess(diffs)
	res.Risk, res.Summary = string(risk), summary
	if len(changed) == 0 {
		res.Summary = "nothing changed"
		res.Warnings = append(res.Warnings, "the change leaves every note as it was; no commit was made")
		return res, nil
	}
	if m.DryRun {
		// The preview fails where the commit would (Store.Commit checks the
		// worktree itself).
		if t.proposal != nil {
			files = nil
		}
		if err := t.w.store.CheckWorktree(ctx, t.head.Commit, files); err != nil {
			return nil, err
		}
		var hunks [][]textdiff.Hunk
		res.Diff, hunks = textdiff.UnifiedHunks(diffs, 3)
		for i, s := range sources {
			res.Changes[i].Version = s.version()
		}
		res.Files = previewFiles(diffs, res.Changes, hunks)
		return res, nil
	}
	req := CommitRequest{
		Parent:    t.head.Commit,
		Branch:    t.head.Branch,
		Changes:   make([]FileChange, 0, len(changed)),
		Author:    t.w.signature(m.Caller.Author),
		Committer: t.w.signature(cmp.Or(m.Committer, t.w.opts.Committer)),
		Message:   commitMessage(t.subject(changed), m, tool, t.head.Commit),
	}
	if p := t.proposal; p != nil {
		req.Message = commitMessage(t.subject(changed), m, tool, p.branch)
		req.Branch, req.Ref, req.RefFrom = "", ProposalsRef+p.id, p.tip
	}
	for _, s := range changed {
		// OldBlob makes the changes the commit's diff, as Store.Changes
		// gives it: the derived stores take them as they are.
		req.Changes = append(req.Changes, FileChange{Path: s.file, Delete: s.content == nil, Content: s.content, OldBlob: s.base.Blob})
	}
	commit, err := t.w.store.Commit(ctx, req)
	if err != nil {
		return nil, err
	}
	res.Commit, res.Branch = commit, BranchName(t.head.Branch)
	blobs := make(map[string]string, len(req.Changes))
	for _, ch := range req.Changes {
		blobs[ch.Path] = ch.NewBlob
	}
	for i, s := range sources {
		res.Changes[i].Version = blobs[s.file]
	}
	if t.proposal != nil {
		t.w.proposed(res, t.proposal.id)
		return res, nil
	}
	t.w.committed(t.head.Commit, commit, req.Changes)
	return res, nil
}

// signature stamps an identity with the current time in the wiki's zone;
// the zero identity is the configured author.
func (w *Wiki) signature(id Identity) Signature {
	if id == (Identity{}) {
		id = w.opts.Author
	}
	return Signature{Name: id.Name, Email: id.Email, When: w.opts.Now().In(w.opts.Location)}
}

// checkVersion fails with CONFLICT unless want is empty or names current.
func checkVersion(notePath, want, current string) error {
	if want == "" || sameVersion(want, current) {
		return nil
	}
	e := Errorf(CodeConflict, "note %q is at version %s, not the expected %s", notePath, short(current), short(want))
	if current == "" {
		e = Errorf(CodeConflict, "note %q does not exist, but version %s was expected", notePath, short(want))
	}
	e.Details = map[string]any{"current_version": current}
	return e.WithHint("read the note again and retry with {expected_version} set to its current version")
}

func sameVersion(want, current string) bool {
	want = strings.ToLower(strings.TrimSpace(want))
	return current != "" && (want == current || (len(want) >= 7 && strings.HasPrefix(current, want)))
}

// unchangedSince fails with CONFLICT if a note this transaction touches has
// another version at the new HEAD than it had when the change was first built.
func (t *txn) unchangedSince(base map[string]string) error {
	for file, v := range t.baseVersions() {
		if old, ok := base[file]; ok && old != v {
			return Errorf(CodeConflict, "note %q changed in another commit while this change was being made", notePathOf(file)).
				WithHint("read the note again and redo the change")
		}
	}
	return nil
}

// changed returns the staged files whose content differs from HEAD, by path.
func (t *txn) changed() []*staged {
	var out []*staged
	for _, s := range t.files {
		if s.content == nil && s.base.Blob == "" {
			continue // created and deleted again in one batch
		}
		if s.content != nil && s.base.Blob != "" && bytes.Equal(s.content, s.old) {
			continue
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].file < out[j].file })
	return out
}

// subject is the commit subject: "<verb>: <path>", or "batch: N notes".
func (t *txn) subject(changed []*staged) string {
	if len(t.verbs) == 1 && t.subjectLine != "" {
		return t.subjectLine
	}
	if len(t.verbs) == 1 && len(changed) == 1 {
		return t.verbs[0] + ": " + changed[0].notePath
	}
	return fmt.Sprintf("batch: %d notes", len(changed))
}

// commitMessage formats subject, body and trailers.
func commitMessage(subject string, m Mutation, tool, base string) string {
	var b strings.Builder
	b.WriteString(oneLine(subject))
	b.WriteString("\n\n")
	if msg := strings.TrimSpace(m.Message); msg != "" {
		b.WriteString(msg)
		b.WriteString("\n\n")
	}
	if t := oneLine(m.Caller.Tool); t != "" {
		tool = t
	}
	fmt.Fprintf(&b, "Wiki-Tool: %s\n", tool)
	client := oneLine(m.Caller.Client)
	if client == "" {
		client = "unknown"
	}
	fmt.Fprintf(&b, "Wiki-Client: %s\n", client)
	if base != "" {
		fmt.Fprintf(&b, "Wiki-Base: %s\n", base)
	}
	for _, t := range m.trailers {
		b.WriteString(oneLine(t))
		b.WriteByte('\n')
	}
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
