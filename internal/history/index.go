package history

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/wikid/wikid/internal/wiki"
)

var (
	_ wiki.History      = (*Index)(nil)
	_ wiki.DerivedStore = (*Index)(nil)
)

// FileName is the index's file in the wiki's derived-state folder.
const FileName = "history"

// Options configure an Index.
type Options struct {
	// Logger receives debug and warning records, in a "history" group. Nil
	// discards them.
	Logger *slog.Logger
}

// Index is the per-path history index of one repository. It is safe for
// concurrent use: queries run in parallel, Sync runs one at a time and
// blocks queries only while it adds a batch of commits.
type Index struct {
	store wiki.Store
	file  string
	log   *slog.Logger

	syncMu sync.Mutex // serializes Sync and Close; guards out and loaded
	out    *os.File   // the file, open for appending; nil when unwritable
	loaded bool       // the file was read

	mu      sync.RWMutex // guards everything below
	closed  bool
	head    string
	commits []commitRec // parents before children
	byID    map[oid]int32
	paths   []string
	pathID  map[string]int32
	// touches lists, per path id, the commits whose changes hold the path,
	// in the order of commits.
	touches [][]int32
	// hasChild marks the commits that are a parent of another; tips counts
	// the others. With more than one tip, the index holds commits that the
	// newest head does not reach.
	hasChild []bool
	tips     int
	// missing holds the blobs that the commits' records needed and the
	// repository lacked.
	absent map[oid]bool

	walks walkCache
}

// Open opens the history index of store's repository. What an earlier run
// stored under store.Dir() is read by the first Sync, so that opening
// costs nothing; a missing or damaged file is not an error: what cannot be
// read is rebuilt by that Sync. It returns an error if the folder cannot
// be created.
func Open(ctx context.Context, store wiki.Store, opts Options) (*Index, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(store.Dir(), 0o755); err != nil {
		return nil, fmt.Errorf("open history index: %w", err)
	}
	x := &Index{
		store: store, file: filepath.Join(store.Dir(), FileName), log: logger.WithGroup("history"),
		byID: map[oid]int32{}, pathID: map[string]int32{}, absent: map[oid]bool{},
	}
	return x, nil
}

// Commit returns the commit the index was last synced to, "" before the
// first Sync.
func (x *Index) Commit() string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.head
}

// MissingObjects returns how many distinct objects the commits the index
// holds refer to and the repository lacks (a partial clone, a damaged
// repository): the line counts and rename searches that needed them are
// unknown. A blob fetched later is still counted until the index is
// rebuilt.
func (x *Index) MissingObjects() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.absent)
}

// Close closes the index file. Later calls return ErrClosed.
func (x *Index) Close(ctx context.Context) error {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	x.closed = true
	if x.out != nil {
		if err := x.out.Close(); err != nil {
			return fmt.Errorf("close history index: %w", err)
		}
	}
	return nil
}

// add appends records, parents first, to the in-memory index. A record
// whose commit is already there is skipped; one with an unknown parent is
// errCorrupt. The caller holds mu for writing.
func (x *Index) add(recs []*pending) error {
	for _, p := range recs {
		if _, ok := x.byID[p.id]; ok {
			continue
		}
		c := commitRec{
			id: p.id, author: p.author, committer: p.committer,
			subject: p.subject, tool: p.tool, client: p.client,
			parents: make([]int32, len(p.parents)),
			changes: make([]changeRec, len(p.changes)),
			missing: p.missing, changesUnknown: p.changesUnknown,
		}
		for i, id := range p.parents {
			pi, ok := x.byID[id]
			if !ok {
				return fmt.Errorf("%w: commit %s comes before its parent %s", errCorrupt, p.id, id)
			}
			c.parents[i] = pi
		}
		idx := int32(len(x.commits))
		for i := range p.changes {
			pc := &p.changes[i]
			ch := &c.changes[i]
			*ch = changeRec{path: x.intern(pc.path), from: -1, old: pc.old, new: pc.new,
				add: pc.add, del: pc.del, radd: pc.radd, rdel: pc.rdel, flags: pc.flags}
			if pc.from != "" {
				ch.from = x.intern(pc.from)
			}
			if len(pc.side) > 0 {
				ch.side = make([]sideRec, len(pc.side))
				for j, s := range pc.side {
					ch.side[j] = sideRec{blob: s.blob, from: -1, fromBlob: s.fromBlob}
					if s.from != "" {
						ch.side[j].from = x.intern(s.from)
					}
				}
			}
			x.touches[ch.path] = append(x.touches[ch.path], idx)
		}
		for _, id := range p.missing {
			x.absent[id] = true
		}
		x.commits = append(x.commits, c)
		x.byID[p.id] = idx
		x.hasChild = append(x.hasChild, false)
		x.tips++
		for _, pi := range c.parents {
			if !x.hasChild[pi] {
				x.hasChild[pi] = true
				x.tips--
			}
		}
	}
	return nil
}

// intern returns the id of a path, adding it if new. The caller holds mu
// for writing.
func (x *Index) intern(path string) int32 {
	if id, ok := x.pathID[path]; ok {
		return id
	}
	id := int32(len(x.paths))
	x.paths = append(x.paths, path)
	x.pathID[path] = id
	x.touches = append(x.touches, nil)
	return id
}

// toPending converts a record back to its stored form.
func (x *Index) toPending(c *commitRec) *pending {
	p := &pending{id: c.id, author: c.author, committer: c.committer,
		subject: c.subject, tool: c.tool, client: c.client,
		parents: make([]oid, len(c.parents)), changes: make([]pendingChange, len(c.changes)),
		missing: c.missing, changesUnknown: c.changesUnknown}
	for i, pi := range c.parents {
		p.parents[i] = x.commits[pi].id
	}
	for i := range c.changes {
		ch := &c.changes[i]
		pc := &p.changes[i]
		*pc = pendingChange{path: x.paths[ch.path], old: ch.old, new: ch.new,
			add: ch.add, del: ch.del, radd: ch.radd, rdel: ch.rdel, flags: ch.flags}
		if ch.from >= 0 {
			pc.from = x.paths[ch.from]
		}
		for _, s := range ch.side {
			ps := pendingSide{blob: s.blob, fromBlob: s.fromBlob}
			if s.from >= 0 {
				ps.from = x.paths[s.from]
			}
			pc.side = append(pc.side, ps)
		}
	}
	return p
}

// lookup returns the index of a commit the index holds, or an error
// wrapping wiki.ErrNotFound. The caller holds mu.
func (x *Index) lookup(commit string) (int32, error) {
	if x.closed {
		return 0, ErrClosed
	}
	id, ok := parseOID(commit)
	if ok {
		if c, ok := x.byID[id]; ok {
			return c, nil
		}
	}
	return 0, wiki.Errorf(wiki.CodeNotFound, "commit %q is not in the history index", commit).
		WithHint("sync the history index to the branch first")
}
