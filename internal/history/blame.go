package history

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/wikid/wikid/internal/wiki"
)

// Blame returns who last changed each line of file at head, as `git blame`
// assigns lines: from each commit, lines are handed down to a parent with
// the same content whole, or else to each parent in turn for the lines the
// line diff leaves unchanged; a file missing in a parent is looked up under
// its rename source there. What no parent takes is the commit's. The line
// diffs are textdiff's, which agree with git's xdiff except where repeated
// lines (blank ones, say) make several alignments equally short: git may
// then hand such a line to another commit. Where a parent's version is
// missing from the repository (a partial clone), the lines that version
// might have had stay with the commit, marked OriginUnknown: that commit or
// an earlier one last changed them. It returns an error wrapping
// wiki.ErrNotFound when file does not exist at head or head was never
// synced.
func (x *Index) Blame(ctx context.Context, head, file string) ([]wiki.BlameRange, error) {
	snap, err := x.store.Snapshot(ctx, head)
	if err != nil {
		return nil, err
	}
	f, content, err := snap.Read(ctx, file)
	if err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.lookup(head)
	if err != nil {
		return nil, err
	}
	n := int32(countLines(content))
	if n == 0 {
		return []wiki.BlameRange{}, nil
	}
	p, ok := x.pathID[file]
	if !ok {
		// Only a commit whose changes are unknown can have added it.
		for c := h; ; c = x.commits[c].parents[0] {
			if x.commits[c].changesUnknown {
				return []wiki.BlameRange{{Start: 1, Lines: int(n), Commit: x.summary(c), File: file, OrigStart: 1, OriginUnknown: true}}, nil
			}
			if len(x.commits[c].parents) == 0 {
				break
			}
		}
		return nil, fmt.Errorf("blame %s: the history index has no commit that changed it", file)
	}
	b := &blamer{x: x, origins: map[[2]int32]*origin{}, blobs: map[oid][]byte{}}
	blob := mustOID(f.Blob)
	b.blobs[blob] = content
	b.give(b.origin(h, p, blob), []blameEntry{{final: 0, slno: 0, n: n}})
	if err := b.run(ctx); err != nil {
		return nil, err
	}
	return b.ranges(), nil
}

// blameEntry is a run of n lines: final is the first one's 0-based number
// at head, slno its number in the suspect's file.
type blameEntry struct{ final, slno, n int32 }

// origin is a file in one commit, with the lines it is suspected of.
type origin struct {
	c, path  int32
	blob     oid
	suspects []blameEntry // by slno
	queued   bool
	seq      int // queue order among commits of the same date
}

// blamer runs one blame.
type blamer struct {
	x       *Index
	origins map[[2]int32]*origin
	blobs   map[oid][]byte
	queue   originQueue
	seq     int
	done    []blamed
}

// blamed is a run of lines assigned to its commit for good; unknown when
// a parent's version that might have had them is missing.
type blamed struct {
	e       blameEntry
	o       *origin
	unknown bool
}

func (b *blamer) origin(c, path int32, blob oid) *origin {
	k := [2]int32{c, path}
	o, ok := b.origins[k]
	if !ok {
		o = &origin{c: c, path: path, blob: blob}
		b.origins[k] = o
	}
	return o
}

// give adds suspect lines to an origin and queues it.
func (b *blamer) give(o *origin, es []blameEntry) {
	if len(es) == 0 {
		return
	}
	o.suspects = append(o.suspects, es...)
	slices.SortFunc(o.suspects, func(a, c blameEntry) int { return int(a.slno - c.slno) })
	if !o.queued {
		o.queued = true
		b.seq++
		o.seq = b.seq
		heap.Push(&b.queue, queued{o, b.x.commits[o.c].committer.when})
	}
}

func (b *blamer) run(ctx context.Context) error {
	for b.queue.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		o := heap.Pop(&b.queue).(queued).o
		o.queued = false
		es := o.suspects
		o.suspects = nil
		rest, unknown, err := b.pass(ctx, o, es)
		if err != nil {
			return err
		}
		for _, e := range rest {
			b.done = append(b.done, blamed{e, o, unknown})
		}
	}
	return nil
}

// parentFile is a file in a parent that lines can be handed down to.
type parentFile struct {
	path int32
	blob oid
}

// pass hands the lines es of origin o down to o's parents and returns the
// lines that stay with o, and whether a parent's version that might have
// taken some of them was missing.
func (b *blamer) pass(ctx context.Context, o *origin, es []blameEntry) (rest []blameEntry, unknown bool, err error) {
	x := b.x
	rec := &x.commits[o.c]
	if rec.changesUnknown {
		return es, true, nil // what it changed is unknown
	}
	ch := rec.change(x.paths, o.path)
	if ch == nil && len(rec.parents) > 0 {
		// The first parent has the same file: so has every first parent
		// up to the next commit that changed it.
		c := rec.parents[0]
		for r := &x.commits[c]; len(r.parents) > 0 && !r.changesUnknown && r.change(x.paths, o.path) == nil; r = &x.commits[c] {
			c = r.parents[0]
		}
		b.give(b.origin(c, o.path, o.blob), es)
		return nil, false, nil
	}
	cands := make([]*parentFile, len(rec.parents))
	// First the same path in each parent, then rename sources, as git's
	// pass_blame does; a parent with the same content takes every line.
	for pass := range 2 {
		for i := range rec.parents {
			if cands[i] != nil {
				continue
			}
			pf := b.parentFile(rec, ch, i, pass == 1)
			if pf == nil {
				continue
			}
			if pf.blob == o.blob {
				b.give(b.origin(rec.parents[i], pf.path, pf.blob), es)
				return nil, false, nil
			}
			dup := false
			for _, c := range cands[:i] {
				dup = dup || (c != nil && c.blob == pf.blob)
			}
			if !dup {
				cands[i] = pf
			}
		}
	}
	for i, pf := range cands {
		if pf == nil {
			continue
		}
		kept, passed, ok, err := b.diff(ctx, o, pf, es)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			unknown = true
			continue
		}
		b.give(b.origin(rec.parents[i], pf.path, pf.blob), passed)
		if es = kept; len(es) == 0 {
			break
		}
	}
	return es, unknown && len(es) > 0, nil
}

// parentFile returns o's file as parent i of rec has it: at the same path,
// or with rename, at the path it was renamed from; nil when there is none.
// ch is the file's change against the first parent.
func (b *blamer) parentFile(rec *commitRec, ch *changeRec, i int, rename bool) *parentFile {
	x := b.x
	if i == 0 {
		switch {
		case !rename && !ch.old.isZero():
			return &parentFile{ch.path, ch.old}
		case rename && ch.old.isZero() && ch.from >= 0:
			if src := rec.change(x.paths, ch.from); src != nil {
				return &parentFile{ch.from, src.old}
			}
		}
		return nil
	}
	s := ch.side[i-1]
	switch {
	case !rename && !s.blob.isZero():
		return &parentFile{ch.path, s.blob}
	case rename && s.blob.isZero() && s.from >= 0:
		return &parentFile{s.from, s.fromBlob}
	}
	return nil
}

// diff splits the lines es of o into those the parent's file pf has
// unchanged (passed, numbered in pf) and the others (kept). It returns ok
// false when either version is missing from the repository.
func (b *blamer) diff(ctx context.Context, o *origin, pf *parentFile, es []blameEntry) (kept, passed []blameEntry, ok bool, err error) {
	target, err := b.blob(ctx, o.blob)
	if err != nil || target == nil {
		return nil, nil, false, err
	}
	parent, err := b.blob(ctx, pf.blob)
	if err != nil || parent == nil {
		return nil, nil, false, err
	}
	// The runs of target lines the diff leaves unchanged, and where they
	// are in the parent.
	type same struct{ t, end, p int32 }
	var runs []same
	t, p := int32(0), int32(0)
	for _, h := range lineHunks(parent, target) {
		if int32(h.b) > t {
			runs = append(runs, same{t, int32(h.b), p})
		}
		t, p = int32(h.b+h.ins), int32(h.a+h.del)
	}
	if n := int32(countLines(target)); n > t {
		runs = append(runs, same{t, n, p})
	}
	for _, e := range es {
		pos, end := e.slno, e.slno+e.n
		for _, r := range runs {
			if r.end <= pos || r.t >= end {
				continue
			}
			if r.t > pos {
				kept = append(kept, blameEntry{e.final + pos - e.slno, pos, r.t - pos})
				pos = r.t
			}
			stop := min(end, r.end)
			passed = append(passed, blameEntry{e.final + pos - e.slno, r.p + pos - r.t, stop - pos})
			pos = stop
		}
		if pos < end {
			kept = append(kept, blameEntry{e.final + pos - e.slno, pos, end - pos})
		}
	}
	return kept, passed, true, nil
}

// blob returns a blob's content, empty but not nil; nil for a blob the
// repository lacks.
func (b *blamer) blob(ctx context.Context, id oid) ([]byte, error) {
	if c, ok := b.blobs[id]; ok {
		return c, nil
	}
	c, err := b.x.store.ReadBlob(ctx, id.String())
	if errors.Is(err, wiki.ErrMissingObject) {
		b.blobs[id] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if c == nil {
		c = []byte{}
	}
	b.blobs[id] = c
	return c, nil
}

// ranges returns the blamed lines in order, adjacent runs of one commit and
// file joined.
func (b *blamer) ranges() []wiki.BlameRange {
	slices.SortFunc(b.done, func(a, c blamed) int { return int(a.e.final - c.e.final) })
	out := []wiki.BlameRange{}
	summaries := map[int32]wiki.CommitSummary{}
	for _, d := range b.done {
		if n := len(out); n > 0 {
			last := &out[n-1]
			if last.Commit.ID == b.x.commits[d.o.c].id.String() && last.File == b.x.paths[d.o.path] &&
				last.OriginUnknown == d.unknown &&
				last.Start+last.Lines == int(d.e.final)+1 && last.OrigStart+last.Lines == int(d.e.slno)+1 {
				last.Lines += int(d.e.n)
				continue
			}
		}
		s, ok := summaries[d.o.c]
		if !ok {
			s = b.x.summary(d.o.c)
			summaries[d.o.c] = s
		}
		out = append(out, wiki.BlameRange{Start: int(d.e.final) + 1, Lines: int(d.e.n), Commit: s,
			File: b.x.paths[d.o.path], OrigStart: int(d.e.slno) + 1, OriginUnknown: d.unknown})
	}
	return out
}

// queued is an origin in the queue, newest commit first, then first in
// first out.
type queued struct {
	o    *origin
	when int64
}

type originQueue []queued

func (q originQueue) Len() int { return len(q) }
func (q originQueue) Less(i, j int) bool {
	if q[i].when != q[j].when {
		return q[i].when > q[j].when
	}
	return q[i].o.seq < q[j].o.seq
}
func (q originQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *originQueue) Push(v any)   { *q = append(*q, v.(queued)) }
func (q *originQueue) Pop() any {
	old := *q
	v := old[len(old)-1]
	*q = old[:len(old)-1]
	return v
}
