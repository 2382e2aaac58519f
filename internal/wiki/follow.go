package wiki

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// DerivedStore is state derived from the branch's commits (the history
// index, the search index, the link graph) that the wiki's follower keeps
// in step with HEAD. It can be emptied and rebuilt from the commits at any
// time. The follower calls one store's methods one at a time; its queries
// may run meanwhile, and must see the state before or after an Apply, never
// between.
type DerivedStore interface {
	// Name says what the store is, in logs, errors and progress ("search
	// index").
	Name() string
	// Commit returns the commit the store reflects, "" when empty.
	Commit() string
	// Reset empties the store, for a rebuild from nothing.
	Reset(ctx context.Context) error
	// Apply brings the store from u.From, its Commit(), to u.To ("" for
	// an unborn branch), with the files that changed in between. It
	// records u.To only once all of it is applied: interrupted, the store
	// reflects u.From, or nothing, and the next Apply starts from there.
	Apply(ctx context.Context, u *Update) error
}

// Update is one step of a derived store, from the commit it reflects to a
// newer one: the files that changed, read and parsed once for every store.
// A rebuild (From "") changes every file of To.
type Update struct {
	// From and To are the commits before and after; From is "" for a
	// rebuild, To "" for an unborn branch.
	From, To string

	w        *Wiki
	lane     *lane
	progress func(Progress)
	changes  []FileChange // the changes From..To, once listed
	listed   bool
	// own maps the files of a commit the wiki made to their changes,
	// which hold their content and blob ids.
	own  map[string]*FileChange
	snap Snapshot
}

// Changes returns the files that changed from From to To, sorted by path
// (every file of To for a rebuild), as Store.Changes gives them: a deleted
// file with Delete set, another with NewBlob its version at To, and OldBlob
// the version at From of a file that had one. For a commit the wiki made
// they also hold the new Content.
func (u *Update) Changes(ctx context.Context) ([]FileChange, error) {
	if u.listed {
		return u.changes, nil
	}
	changes, err := u.w.store.Changes(ctx, u.From, u.To)
	if err != nil {
		return nil, fmt.Errorf("changes %s..%s: %w", short(u.From), short(u.To), err)
	}
	u.changes, u.listed = changes, true
	if u.From == "" {
		u.w.files.Store(int64(len(changes)))
	}
	if len(changes) > longUpdate {
		u.lane.setBuilding(true)
	}
	return changes, nil
}

// Read returns a file at To and its content.
func (u *Update) Read(ctx context.Context, file string) (File, []byte, error) {
	if ch := u.own[file]; ch != nil && !ch.Delete {
		return File{Path: file, Blob: ch.NewBlob, Size: int64(len(ch.Content))}, ch.Content, nil
	}
	if u.snap == nil {
		snap, err := u.w.store.Snapshot(ctx, u.To)
		if err != nil {
			return File{}, nil, err
		}
		u.snap = snap
	}
	return u.snap.Read(ctx, file)
}

// Note returns the note a changed file holds at To, parsed once for every
// store, and false for a file that is not a note.
func (u *Update) Note(ctx context.Context, file string) (*note.Note, File, bool, error) {
	p, _, ok := note.SplitFileName(file)
	if !ok {
		return nil, File{}, false, nil
	}
	f, content, err := u.Read(ctx, file)
	if err != nil {
		return nil, File{}, true, err
	}
	return u.w.parse(p, f, content), f, true, nil
}

// Document returns what the search index stores of a note that changed,
// the note at To, and false for a file that is not a note.
func (u *Update) Document(ctx context.Context, file string) (Document, bool, error) {
	n, f, ok, err := u.Note(ctx, file)
	if !ok || err != nil {
		return Document{}, ok, err
	}
	return document(n, f), true, nil
}

// Blobs returns a reader of the repository's blobs by id (see
// Store.ReadBlob), for a store that reads again, after the update, content
// it did not keep.
func (u *Update) Blobs() func(ctx context.Context, id string) ([]byte, error) {
	return u.w.store.ReadBlob
}

// Progress reports that done of total pieces of the update are applied:
// to the wiki's status, and to the calls waiting for the store.
func (u *Update) Progress(done, total int) {
	u.lane.setProgress(done, total)
	if u.progress != nil {
		u.progress(Progress{Done: done, Total: total, Message: "building the " + u.lane.store.Name()})
	}
}

// longUpdate is how many changed files make an update long: while it runs
// the store counts as building, so mutations do not wait for it and reads
// report its progress.
const longUpdate = 500

// lane is one derived store and the one rule that keeps it consistent:
// every change of the store happens while the lane is held, by the
// follower.
type lane struct {
	store DerivedStore
	// held is a semaphore of one, taken (a value sent) while the store
	// changes, and by a reader that needs it to stay at one commit. A
	// waiter blocks on it, woken the moment it is released.
	held chan struct{}

	stateMu     sync.Mutex
	building    bool
	done, total int
	lastErr     error
	// started is closed when a long update starts (building turns true),
	// so that a mutation waiting for the lane stops waiting for it.
	started chan struct{}
	// followUp is closed when the lane is through with the last commit
	// the wiki made (see committed); nil before the first.
	followUp chan struct{}
}

func newLane(s DerivedStore) *lane {
	return &lane{store: s, held: make(chan struct{}, 1), started: make(chan struct{})}
}

// DerivedState is how far a derived store is.
type DerivedState struct {
	Name     string
	Commit   string
	Building bool
	// Done of Total pieces of a build in progress.
	Done, Total int
	// Error is the last update's error, "" when it succeeded.
	Error string
}

func (l *lane) state() DerivedState {
	l.stateMu.Lock()
	defer l.stateMu.Unlock()
	st := DerivedState{Name: l.store.Name(), Commit: l.store.Commit(), Building: l.building, Done: l.done, Total: l.total}
	if l.lastErr != nil {
		st.Error = l.lastErr.Error()
	}
	return st
}

func (l *lane) setBuilding(b bool) {
	l.stateMu.Lock()
	l.setBuildingLocked(b)
	l.stateMu.Unlock()
}

// setBuildingLocked sets building, closing started when it turns true. The
// caller holds stateMu.
func (l *lane) setBuildingLocked(b bool) {
	switch {
	case b && !l.building:
		close(l.started)
	case !b && l.building:
		l.started = make(chan struct{})
	}
	l.building = b
}

func (l *lane) finish(err error) {
	l.stateMu.Lock()
	l.setBuildingLocked(false)
	l.lastErr, l.done, l.total = err, 0, 0
	l.stateMu.Unlock()
}

func (l *lane) setProgress(done, total int) {
	l.stateMu.Lock()
	l.done, l.total = done, total
	l.stateMu.Unlock()
}

// acquire takes the lane, waiting as long as it is held.
func (l *lane) acquire() { l.held <- struct{}{} }

// release lets the lane go; the waiter it wakes, if any, takes it.
func (l *lane) release() { <-l.held }

// lock takes the lane, waiting for the update that holds it and reporting
// its progress to ctx's progress function when it has to wait, and every
// progressEvery after; it returns the context's error when ctx is done
// first.
func (l *lane) lock(ctx context.Context) error {
	select {
	case l.held <- struct{}{}:
		return nil
	default:
	}
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	for {
		st := l.state()
		reportProgress(ctx, Progress{Done: st.Done, Total: st.Total, Message: "waiting for the " + st.Name + " to be built"})
		select {
		case l.held <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// lockUnlessBuilding takes the lane unless a long update holds it; it
// reports whether it took it. A mutation does not wait for a build.
func (l *lane) lockUnlessBuilding() bool {
	for {
		l.stateMu.Lock()
		building, started := l.building, l.started
		l.stateMu.Unlock()
		if building {
			return false
		}
		select {
		case l.held <- struct{}{}:
			return true
		case <-started: // a long update started: it holds the lane
		}
	}
}

// follow starts bringing every derived store to HEAD, head when the wiki
// opened, in the background. A store that a read or the follower moved in
// the meantime is theirs; one still where it was goes to head, and on to
// HEAD unless the follower has a commit of the wiki's to bring it to (it
// takes that from head without reading the commit back).
//
// Stores built from nothing are built in turn where it bounds the memory
// of a first build: the history index and the search index at once (the
// history's walk is a tenth of the index's work, and reads take a note's
// dates from it), then the others together, or in a wiki of
// sequentialBuild files or more one after another. A read that needs a
// store still waiting builds it at once (see await).
func (w *Wiki) follow(ctx context.Context, head string) {
	var later []*lane // built from nothing after the index
	index := w.indexLane.store.Commit() == ""
	for _, l := range w.lanes {
		from := l.store.Commit()
		switch {
		case !index || from != "" || l == w.historyLane:
			w.bg.Go(func() { w.catchUp(ctx, l, from, head) })
		case l == w.indexLane:
			// below, before the stores in later
		default:
			later = append(later, l)
		}
	}
	if !index {
		return
	}
	w.bg.Go(func() {
		w.catchUp(ctx, w.indexLane, "", head)
		if w.files.Load() >= sequentialBuild.Load() {
			for _, l := range later {
				w.catchUp(ctx, l, "", head)
			}
			return
		}
		for _, l := range later {
			w.bg.Go(func() { w.catchUp(ctx, l, "", head) })
		}
	})
}

// sequentialBuild is the size of a wiki, in files, from which the stores
// built after the search index are built one at a time: at 100,000 notes
// the stores built together added 100–130 MiB to a daemon's peak to be
// done 4–10 s sooner; at 10,000, 20 MiB for a second sooner.
var sequentialBuild atomic.Int64

func init() { sequentialBuild.Store(30000) }

// catchUp brings the store of l from commit `from` to head and on to
// HEAD, unless a read or the follower moved it in the meantime.
func (w *Wiki) catchUp(ctx context.Context, l *lane, from, head string) {
	l.acquire()
	defer l.release()
	if l.store.Commit() != from {
		return
	}
	err := w.advance(ctx, l, head, nil, nil)
	if err == nil && !l.followUpPending() {
		var now Head
		if now, err = w.store.Head(ctx); err == nil {
			err = w.advance(ctx, l, now.Commit, nil, nil)
		}
	}
	if err != nil && ctx.Err() == nil {
		w.log.Error("catch-up failed", "store", l.store.Name(), "err", err)
	}
}

// await brings a store to HEAD before a read: it applies the commits made
// since it was last updated, and waits for an update in progress,
// reporting how far it is to ctx's progress function (see WithProgress). A
// read after it answers from the whole of HEAD, never from part of it. It
// returns HEAD.
func (w *Wiki) await(ctx context.Context, l *lane) (Head, error) {
	head, err := w.store.Head(ctx)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	if l.store.Commit() == head.Commit {
		return head, nil
	}
	// The follow-up of the wiki's last commit brings the store there
	// with the files it holds already: wait for it, not do it again.
	if err := w.awaitFollowUp(ctx, l); err != nil {
		return Head{}, err
	}
	if l.store.Commit() == head.Commit {
		return head, nil
	}
	if err := l.lock(ctx); err != nil {
		return Head{}, err
	}
	defer l.release()
	// A write may have moved HEAD and the store while we waited: catch up
	// to HEAD as it is now, not as it was (an older HEAD would look like
	// rewritten history and force a rebuild).
	if head, err = w.store.Head(ctx); err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	return head, w.advance(ctx, l, head.Commit, nil, func(p Progress) { reportProgress(ctx, p) })
}

// awaitCommit brings a store to commit, which must be HEAD or an
// ancestor of HEAD that the store reflects or precedes.
func (w *Wiki) awaitCommit(ctx context.Context, l *lane, commit string) error {
	if l.store.Commit() == commit {
		return nil
	}
	if err := l.lock(ctx); err != nil {
		return err
	}
	defer l.release()
	return w.advance(ctx, l, commit, nil, func(p Progress) { reportProgress(ctx, p) })
}

// hold runs fn with a store at commit, holding it there: no update runs
// until fn returns.
func (w *Wiki) hold(ctx context.Context, l *lane, commit string, fn func() error) error {
	if err := w.awaitFollowUp(ctx, l); err != nil {
		return err
	}
	if err := l.lock(ctx); err != nil {
		return err
	}
	defer l.release()
	if err := w.advance(ctx, l, commit, nil, nil); err != nil {
		return err
	}
	return fn()
}

// advance moves a store from its commit to `to`: by the changes in between
// when its commit is an ancestor of `to`, else by a rebuild. c, when not
// nil, is the update of the commit the wiki just made, used when the store
// is at its parent. The caller holds the lane.
func (w *Wiki) advance(ctx context.Context, l *lane, to string, c *Update, progress func(Progress)) (err error) {
	from := l.store.Commit()
	if from == to {
		return nil
	}
	defer func() {
		l.finish(err)
		if l == w.indexLane {
			w.listed.drop() // the scans' list, kept while the index was built
			w.scanned.drop()
		}
	}()
	own := c != nil && c.From == from // the wiki's commit, on the store's commit
	if from != "" && !own {
		ok, err := w.store.IsAncestor(ctx, from, to)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("%s catch-up: %w", l.store.Name(), err)
		}
		if !ok {
			w.log.Info("not on the branch's history; rebuilding", "store", l.store.Name(), "at", short(from), "head", short(to))
			from = ""
		}
	}
	if from == "" {
		l.setBuilding(true)
		if err := l.store.Reset(ctx); err != nil {
			return fmt.Errorf("%s reset: %w", l.store.Name(), err)
		}
	}
	u := &Update{From: from, To: to, w: w, lane: l, progress: progress}
	if own {
		u.changes, u.listed, u.own = c.changes, c.listed, c.own
	}
	start := time.Now()
	if err := l.store.Apply(ctx, u); err != nil {
		return fmt.Errorf("%s catch-up: %w", l.store.Name(), err)
	}
	w.log.Debug("caught up", "store", l.store.Name(), "from", short(from), "to", short(to), "took", time.Since(start))
	return nil
}

// CatchUp brings every derived store to HEAD, waiting for the updates in
// progress and reporting their progress to ctx's progress function.
func (w *Wiki) CatchUp(ctx context.Context) error {
	for _, l := range w.lanes {
		if _, err := w.await(ctx, l); err != nil {
			return err
		}
	}
	return nil
}
