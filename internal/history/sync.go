package history

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// syncBatch is how many commits Sync adds to the index at a time.
const syncBatch = 256

// Sync brings the index to head ("" for an unborn branch). It adds the
// commits reachable from head that the index does not hold, oldest first,
// in batches that queries can see as they land. When it added commits and
// the index then holds commits that head cannot reach (history was
// rewritten: an amend, a reset followed by new commits, a forced pull), it
// drops those and rewrites the file. A head the index holds (an older
// commit after a reset, say) only moves the index's commit. It returns an error wrapping wiki.ErrNotFound for an
// unknown head, the store's errors, and ctx's error when interrupted (the
// commits added so far stay).
func (x *Index) Sync(ctx context.Context, head string) error {
	return x.sync(ctx, head, nil)
}

// Name is the index's name in logs, errors and progress.
func (x *Index) Name() string { return "history index" }

// Reset does nothing: the Apply of a rebuild that follows drops the
// commits a rewritten history left out, and keeps the others.
func (x *Index) Reset(context.Context) error { return nil }

// Apply brings the index from u.From to u.To as Sync does, taking u's
// changes as the diff of u.To against its first parent when that parent is
// u.From: the changes the follower lists once for every store, which for a
// commit the wiki made hold the new contents, not read again. The commits
// of a longer update (or a rebuild) are walked one by one, as Sync walks
// them: the index keeps each commit's own diff.
func (x *Index) Apply(ctx context.Context, u *wiki.Update) error {
	var given *givenDiff
	if u.From != "" && u.To != "" {
		given = &givenDiff{parent: u.From, commit: u.To, changes: u.Changes}
	}
	return x.sync(ctx, u.To, given)
}

// givenDiff is the diff of one commit against its first parent, given by
// the caller rather than computed from the trees.
type givenDiff struct {
	parent, commit string
	changes        func(context.Context) ([]wiki.FileChange, error)
}

// sync is Sync, with the diff of head when the caller has it.
func (x *Index) sync(ctx context.Context, head string, given *givenDiff) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.mu.RLock()
	closed := x.closed
	x.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	if !x.loaded {
		x.load()
		x.loaded = true
	}
	x.mu.RLock()
	old := x.head
	x.mu.RUnlock()
	if head == old {
		return nil
	}
	if head == "" {
		x.setHead("")
		return nil
	}
	h, ok := parseOID(head)
	if !ok {
		return wiki.Errorf(wiki.CodeNotFound, "%q is not a commit id", head)
	}
	x.mu.RLock()
	_, known := x.byID[h]
	x.mu.RUnlock()
	if known {
		x.setHead(head)
		return nil
	}
	start := time.Now()
	n, err := x.extend(ctx, h, given)
	if err != nil {
		return fmt.Errorf("sync history to %s: %w", head, err)
	}
	x.log.Debug("history index extended", "head", head, "commits", n, "took", time.Since(start))
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.tips > 1 {
		x.log.Info("history was rewritten; dropping unreachable commits from the history index", "old", old, "head", head)
		x.prune(x.byID[h])
		x.rewrite()
	}
	x.head = head
	return nil
}

func (x *Index) setHead(head string) {
	x.mu.Lock()
	x.head = head
	x.mu.Unlock()
}

// extend adds the commits reachable from h that the index lacks and
// returns how many it added; given, when not nil, is the diff of one of
// them.
func (x *Index) extend(ctx context.Context, h oid, given *givenDiff) (int, error) {
	order, infos, err := x.missing(ctx, h)
	if err != nil {
		return 0, err
	}
	b := newBuilder(x.store)
	b.given = given
	var batch []*pending
	flush := func() error {
		x.mu.Lock()
		err := x.add(batch)
		x.mu.Unlock()
		if err != nil {
			return err
		}
		x.appendFile(batch)
		batch = batch[:0]
		return nil
	}
	for i, id := range order {
		if err := ctx.Err(); err != nil {
			if ferr := flush(); ferr != nil {
				return i, ferr
			}
			return i, err
		}
		m := infos[id]
		p, err := b.build(ctx, m.info, m.parents)
		if err != nil {
			return i, fmt.Errorf("commit %s: %w", id, err)
		}
		batch = append(batch, p)
		if len(batch) == syncBatch {
			if err := flush(); err != nil {
				return i, err
			}
		}
	}
	return len(order), flush()
}

// missingCommit is a commit to add, with the parents the repository has.
type missingCommit struct {
	info    wiki.CommitInfo
	parents []oid
}

// missing returns the commits reachable from h that the index lacks,
// parents before children, with their commit information. A parent the
// repository lacks (the edge of a shallow clone) is left out.
func (x *Index) missing(ctx context.Context, h oid) ([]oid, map[oid]*missingCommit, error) {
	infos := map[oid]*missingCommit{}
	known := func(id oid) bool {
		x.mu.RLock()
		defer x.mu.RUnlock()
		_, ok := x.byID[id]
		return ok
	}
	var order []oid
	type frame struct {
		id   oid
		next int // the next parent to visit
	}
	stack := []frame{{id: h}}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		top := &stack[len(stack)-1]
		m, ok := infos[top.id]
		if !ok {
			info, err := x.store.CommitInfo(ctx, top.id.String())
			if errors.Is(err, wiki.ErrNotFound) && len(stack) > 1 {
				// Drop the absent parent from its child.
				child := &stack[len(stack)-2]
				cm := infos[child.id]
				child.next--
				cm.parents = append(cm.parents[:child.next], cm.parents[child.next+1:]...)
				stack = stack[:len(stack)-1]
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			m = &missingCommit{info: info}
			for _, ps := range info.Parents {
				pid, _ := parseOID(ps)
				m.parents = append(m.parents, pid)
			}
			infos[top.id] = m
		}
		if top.next < len(m.parents) {
			p := m.parents[top.next]
			top.next++
			if _, seen := infos[p]; !seen && !known(p) {
				stack = append(stack, frame{id: p})
			}
			continue
		}
		order = append(order, top.id)
		stack = stack[:len(stack)-1]
	}
	return order, infos, nil
}

// prune keeps only the commits reachable from head. The caller holds mu
// for writing.
func (x *Index) prune(head int32) {
	keep := make([]bool, len(x.commits))
	keep[head] = true
	for c := head; c >= 0; c-- {
		if keep[c] {
			for _, p := range x.commits[c].parents {
				keep[p] = true
			}
		}
	}
	var recs []*pending
	for c := range x.commits {
		if keep[c] {
			recs = append(recs, x.toPending(&x.commits[c]))
		}
	}
	x.reset()
	if err := x.add(recs); err != nil {
		panic("history: pruning lost a parent: " + err.Error()) // parents of kept commits are kept
	}
}
