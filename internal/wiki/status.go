package wiki

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// maxBehindCount bounds the commits Status walks to count how far the
// search index is behind HEAD.
const maxBehindCount = 1000

// Status describes the wiki: its repository, HEAD, notes, search index and
// sync state.
type Status struct {
	// Repository is the checkout's top folder, or the git folder of a bare
	// repository; GitDir is the git folder.
	Repository string
	GitDir     string
	// Branch is the short branch name, "" when HEAD is detached.
	Branch string
	// WritesTo is the branch changes go to when another one is checked
	// out (changes then fail with OTHER_BRANCH), else "".
	WritesTo string
	Detached bool
	// Head is the commit HEAD points at, "" on an unborn branch.
	Head     string
	Bare     bool
	Notes    int
	ReadOnly bool
	// Unwritable says why this user cannot write the repository, which is
	// then served read-only with its derived state in the user's cache
	// folder (DerivedDir); "" when they can.
	Unwritable string
	DerivedDir string
	// Blocked says why changes fail now (a git lock file that wikid did
	// not take), "" when they do not.
	Blocked string
	Index   IndexStatus
	// Links says how wiki links resolve.
	Links LinkResolution
	// History and Graph are the per-path history index and the link graph.
	History DerivedStatus
	Graph   DerivedStatus
	// Semantic is the semantic index: how far its embedding is, and the
	// embeddings endpoint's last error.
	Semantic SemanticStatus
	// MissingObjects counts the objects the history refers to that the
	// repository lacks (a partial clone, a damaged repository), as far as
	// the history index has looked: line counts and renames that need them
	// are unknown. Notes at HEAD are unaffected.
	MissingObjects int
	Sync           SyncStatus
	// Restored lists the notes put back after a commit made elsewhere
	// dropped them by accident: "path (dropped by <commit>)".
	Restored []string
	// LocalChanges are the notes of a checkout that differ from HEAD,
	// which no tool shows until they are committed; nil for a bare
	// repository.
	LocalChanges *LocalChanges
}

// DerivedStatus is the state of derived data that follows HEAD.
type DerivedStatus struct {
	// Enabled is always true: every wiki runs with the history index and
	// the link graph.
	Enabled bool
	// Commit is the commit it reflects; CaughtUp is true when that is HEAD.
	Commit   string
	CaughtUp bool
}

func derived(commit, head string) DerivedStatus {
	return DerivedStatus{Enabled: true, Commit: commit, CaughtUp: commit == head}
}

// SemanticStatus is the semantic index's state relative to HEAD.
type SemanticStatus struct {
	// Enabled is false when semantic search is not configured.
	Enabled bool
	SemanticState
	// CaughtUp is true when the index holds the notes of HEAD (some may
	// wait to be embedded: Unembedded).
	CaughtUp bool
}

// IndexStatus is the search index's state relative to HEAD.
type IndexStatus struct {
	// Enabled is always true: every wiki runs with a search index.
	Enabled bool
	IndexState
	// CaughtUp is true when the index reflects HEAD.
	CaughtUp bool
	// Behind counts the first-parent commits from the index's commit to
	// HEAD; -1 when they were not counted (the index is empty, its commit
	// is not on the branch, or more than 1000 commits separate them).
	Behind int
}

// SyncStatus is the state of syncing with a remote.
type SyncStatus struct {
	Configured bool
	Message    string
	// Upstream is the remote branch, "origin/main".
	Upstream string
	// Auto says whether the daemon syncs by itself.
	Auto bool
	// Ahead and Behind count the commits only the branch has and only the
	// remote branch has, as of the last fetch; -1 when not counted.
	Ahead, Behind int
	// LastSuccess is the end of the last round that succeeded; LastError
	// the error of the last round, when it failed.
	LastSuccess *time.Time
	LastError   string
	// Conflicts are the conflict copies the last merges made.
	Conflicts []string
}

// SyncReporter tells the state of syncing, for Status. A status that is
// not Configured leaves Status saying that sync is not configured.
type SyncReporter interface {
	SyncStatus(ctx context.Context) SyncStatus
}

// SetSyncReporter makes Status report the state r tells.
func (w *Wiki) SetSyncReporter(r SyncReporter) {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.sync = r
}

// RestoreReporter tells what was put back after a commit made elsewhere
// dropped it by accident (see package gitsync's Guard), for Status.
type RestoreReporter interface {
	Restored() []string
}

// SetRestoreReporter makes Status report what r tells.
func (w *Wiki) SetRestoreReporter(r RestoreReporter) {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.restores = r
}

// syncReporter returns what SetSyncReporter set, or nil.
func (w *Wiki) syncReporter() SyncReporter {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	return w.sync
}

// noteList remembers the note files of one commit: listing them took a
// status or a scan 1.5 s at 100,000 notes while the indexes were built.
// It keeps the list while the search index is built, for the scans that
// answer meanwhile, and only its length after, for the status.
type noteList struct {
	mu     sync.Mutex
	commit string
	files  []string // nil when not kept
	n      int
}

// drop forgets the list, keeping its length.
func (c *noteList) drop() {
	c.mu.Lock()
	c.files = nil
	c.mu.Unlock()
}

// noteFiles returns the note files of snap (nil unless keep) and how many
// there are, listing them once per commit; with keep, the list is kept.
func (w *Wiki) noteFiles(ctx context.Context, snap Snapshot, keep bool) ([]string, int, error) {
	c := &w.listed
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commit == snap.Commit() && c.commit != "" && (c.files != nil || !keep) {
		if !keep {
			c.files = nil
		}
		return c.files, c.n, nil
	}
	all, err := snap.Files(ctx, "")
	if err != nil {
		return nil, 0, err
	}
	var files []string
	for _, f := range all {
		if _, _, ok := note.SplitFileName(f.Path); ok {
			files = append(files, f.Path)
		}
	}
	c.commit, c.n, c.files = snap.Commit(), len(files), nil
	if keep {
		c.files = files
	}
	return files, len(files), nil
}

// Status reports the wiki's state. It reads HEAD and lists the notes at
// HEAD, and returns an error only when the repository cannot be read.
func (w *Wiki) Status(ctx context.Context) (*Status, error) {
	head, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	_, notes, err := w.noteFiles(ctx, snap, w.indexLane.state().Building)
	if err != nil {
		return nil, err
	}
	gitDir, unwritable := w.store.GitDir(), w.store.Unwritable()
	st := &Status{
		Repository: gitDir, GitDir: gitDir,
		Branch: BranchName(head.Branch), Detached: head.Detached,
		Head: head.Commit, Bare: head.Bare, ReadOnly: w.opts.ReadOnly, Unwritable: unwritable,
		Sync: SyncStatus{Message: Sayf("sync is not configured: run {sync} for one round, or add a sync: block to " +
			".wikid.yaml for the daemon to sync by itself"), Ahead: -1, Behind: -1},
	}
	if mine := w.writeBranch(); mine != "" && !head.Detached && head.Branch != mine {
		st.WritesTo = BranchName(mine)
	}
	if r := w.syncReporter(); r != nil {
		if s := r.SyncStatus(ctx); s.Configured {
			st.Sync = s
		}
	}
	w.syncMu.Lock()
	restores := w.restores
	w.syncMu.Unlock()
	if restores != nil {
		st.Restored = restores.Restored()
	}
	if !w.opts.ReadOnly {
		st.Blocked = w.store.Blocked(ctx)
	}
	if unwritable != "" {
		st.DerivedDir = w.store.Dir()
	}
	if !head.Bare && filepath.Base(gitDir) == ".git" {
		st.Repository = filepath.Dir(gitDir)
	}
	st.Notes = notes
	st.LocalChanges = w.localChanges(ctx, head)
	st.History = derived(w.hist.Commit(), head.Commit)
	st.MissingObjects = w.hist.MissingObjects()
	st.Graph = derived(w.graph.Commit(), head.Commit)
	st.Links = w.LinkResolution()
	if w.semantic != nil {
		st.Semantic = SemanticStatus{Enabled: true, SemanticState: w.semantic.State(), CaughtUp: w.semantic.Commit() == head.Commit}
	}
	st.Index.Enabled = true
	st.Index.IndexState = w.IndexState()
	st.Index.CaughtUp = st.Index.Commit == head.Commit
	st.Index.Behind = w.commitsBetween(ctx, st.Index.Commit, head.Commit)
	return st, nil
}

// Derived reports the state of the derived data (search index, history
// index, link graph) against HEAD, and why changes are blocked, without the
// costlier parts of Status (listing the notes, scanning the checkout): for
// a quick look while they build.
func (w *Wiki) Derived(ctx context.Context) (index IndexStatus, history, graph DerivedStatus, blocked string, err error) {
	head, err := w.store.Head(ctx)
	if err != nil {
		return index, history, graph, "", err
	}
	history = derived(w.hist.Commit(), head.Commit)
	graph = derived(w.graph.Commit(), head.Commit)
	if !w.opts.ReadOnly {
		blocked = w.store.Blocked(ctx)
	}
	index.Behind = -1
	index.Enabled, index.IndexState = true, w.IndexState()
	index.CaughtUp = index.Commit == head.Commit
	return index, history, graph, blocked, nil
}

// LinkResolution says how the wiki's links resolve.
func (w *Wiki) LinkResolution() LinkResolution {
	return w.graph.Resolution()
}

// commitsBetween counts the first-parent steps from `to` back to `from`,
// or returns -1 when `from` is not reached within maxBehindCount steps.
func (w *Wiki) commitsBetween(ctx context.Context, from, to string) int {
	if from == to {
		return 0
	}
	if from == "" {
		return -1
	}
	c := to
	for n := 0; n < maxBehindCount && c != ""; n++ {
		if c == from {
			return n
		}
		info, err := w.store.CommitInfo(ctx, c)
		if err != nil {
			return -1
		}
		c = ""
		if len(info.Parents) > 0 {
			c = info.Parents[0]
		}
	}
	if c == from {
		return maxBehindCount
	}
	return -1
}
