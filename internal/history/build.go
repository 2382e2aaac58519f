package history

import (
	"context"
	"errors"
	"slices"

	"github.com/wikid/wikid/internal/textdiff"
	"github.com/wikid/wikid/internal/wiki"
)

// blobCacheBytes bounds the blobs a builder keeps between commits: a file
// edited in one commit is usually the old side of a later one.
const blobCacheBytes = 16 << 20

// builder turns commits into records, reading their tree diffs and blobs
// through the store.
type builder struct {
	store wiki.Store
	blobs map[oid][]byte
	size  int
	// absent holds the blobs the repository lacks (a partial clone), so
	// that each is asked for once; met collects those the record being
	// built needed.
	absent map[oid]bool
	met    map[oid]bool
	// given is the diff of one commit, when the caller has it.
	given *givenDiff
}

func newBuilder(store wiki.Store) *builder {
	return &builder{store: store, blobs: map[oid][]byte{}, absent: map[oid]bool{}, met: map[oid]bool{}}
}

// blob returns a blob's content; the zero id is empty content. For a blob
// the repository lacks it returns ok false and records the blob as met.
func (b *builder) blob(ctx context.Context, id oid) (content []byte, ok bool, err error) {
	if id.isZero() {
		return nil, true, nil
	}
	if c, ok := b.blobs[id]; ok {
		return c, true, nil
	}
	if b.absent[id] {
		b.met[id] = true
		return nil, false, nil
	}
	c, err := b.store.ReadBlob(ctx, id.String())
	if errors.Is(err, wiki.ErrMissingObject) {
		b.absent[id], b.met[id] = true, true
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	b.keep(id, c)
	return c, true, nil
}

// keep caches a blob's content.
func (b *builder) keep(id oid, c []byte) {
	if b.size+len(c) > blobCacheBytes {
		b.blobs, b.size = map[oid][]byte{}, 0
	}
	b.blobs[id] = c
	b.size += len(c)
}

// candidate returns a rename candidate with its content; a candidate whose
// blob the repository lacks is marked missing and pairs by blob id only.
func (b *builder) candidate(ctx context.Context, path string, id oid) (*candidate, error) {
	c, ok, err := b.blob(ctx, id)
	if err != nil {
		return nil, err
	}
	return &candidate{path: path, blob: id, content: c, missing: !ok}, nil
}

// takeMet returns the missing blobs met since the last call, sorted.
func (b *builder) takeMet() []oid {
	if len(b.met) == 0 {
		return nil
	}
	out := make([]oid, 0, len(b.met))
	for id := range b.met {
		out = append(out, id)
	}
	slices.SortFunc(out, func(a, c oid) int { return compareOID(a, c) })
	clear(b.met)
	return out
}

// build returns the record of a commit: its changes against its first
// parent with renames and line counts, and for a merge what its other
// parents have at the changed paths. A blob the repository lacks leaves
// the line counts (and the rename search) that need it unknown, and is
// listed in the record's missing blobs.
func (b *builder) build(ctx context.Context, info wiki.CommitInfo, parents []oid) (*pending, error) {
	id, _ := parseOID(info.ID)
	tool, client := trailers(info.Message)
	p := &pending{id: id, parents: parents, subject: subjectOf(info.Message), tool: tool, client: client,
		author: personOf(info.Author), committer: personOf(info.Committer)}
	first := ""
	if len(parents) > 0 {
		first = parents[0].String()
	}
	clear(b.met)
	changes, err := b.changes(ctx, first, info.ID)
	if b.treeMissing(p, err) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	p.changes = make([]pendingChange, len(changes))
	for i, fc := range changes {
		p.changes[i] = pendingChange{path: fc.Path, old: mustOID(fc.OldBlob), new: mustOID(fc.NewBlob)}
	}
	if err := b.renames(ctx, p.changes); err != nil {
		return nil, err
	}
	if err := b.count(ctx, p.changes); err != nil {
		return nil, err
	}
	for _, parent := range parents[min(1, len(parents)):] {
		err := b.side(ctx, p, parent)
		if b.treeMissing(p, err) {
			return p, nil
		}
		if err != nil {
			return nil, err
		}
	}
	p.missing = b.takeMet()
	return p, nil
}

// changes returns the diff of commit against its first parent: the given
// one, whose new contents it keeps for the line counts, else the trees'.
func (b *builder) changes(ctx context.Context, first, commit string) ([]wiki.FileChange, error) {
	g := b.given
	if g == nil || g.commit != commit || g.parent != first {
		return b.store.Changes(ctx, first, commit)
	}
	changes, err := g.changes(ctx)
	if err != nil {
		return nil, err
	}
	for _, ch := range changes {
		if id, ok := parseOID(ch.NewBlob); ok && ch.Content != nil {
			b.keep(id, ch.Content)
		}
	}
	return changes, nil
}

// treeMissing reports whether err is a tree diff's missing object (a
// treeless clone, a damaged repository); it then empties p's changes, marks
// them unknown and records the object as missing.
func (b *builder) treeMissing(p *pending, err error) bool {
	var mo *wiki.MissingObjectError
	if !errors.As(err, &mo) {
		return false
	}
	if id, ok := parseOID(mo.ID); ok {
		b.absent[id], b.met[id] = true, true
	}
	p.changes, p.changesUnknown, p.missing = nil, true, b.takeMet()
	return true
}

// renames sets the rename source of every added file, found as git finds
// the source of one file it follows (`git log --follow`, `git blame`). An
// added file that stays without a source while its content or a deleted
// file's is missing is marked: it may be a rename that only equal blob ids
// could have shown.
func (b *builder) renames(ctx context.Context, changes []pendingChange) error {
	var srcs []*candidate
	var srcPaths []int
	for i, ch := range changes {
		if ch.new.isZero() {
			srcPaths = append(srcPaths, i)
		}
	}
	srcMissing := false
	for i := range changes {
		ch := &changes[i]
		if !ch.old.isZero() || len(srcPaths) == 0 {
			continue
		}
		if srcs == nil {
			for _, k := range srcPaths {
				c, err := b.candidate(ctx, changes[k].path, changes[k].old)
				if err != nil {
					return err
				}
				srcs = append(srcs, c)
				srcMissing = srcMissing || c.missing
			}
		}
		dst, err := b.candidate(ctx, ch.path, ch.new)
		if err != nil {
			return err
		}
		if si := pairRenames(srcs, []*candidate{dst})[0]; si >= 0 {
			ch.from = srcs[si].path
		} else if dst.missing || srcMissing {
			ch.flags |= flagRenameUnknown
		}
	}
	return nil
}

// count sets the added and deleted lines of every change, or marks them
// unknown where a blob is missing.
func (b *builder) count(ctx context.Context, changes []pendingChange) error {
	byPath := map[string]oid{}
	for _, ch := range changes {
		if ch.new.isZero() {
			byPath[ch.path] = ch.old
		}
	}
	for i := range changes {
		ch := &changes[i]
		add, del, ok, err := b.lines(ctx, ch.old, ch.new)
		if err != nil {
			return err
		}
		ch.add, ch.del = add, del
		if !ok {
			ch.flags |= flagLinesUnknown
		}
		ch.radd, ch.rdel = ch.add, ch.del
		if ch.from != "" {
			if ch.radd, ch.rdel, ok, err = b.lines(ctx, byPath[ch.from], ch.new); err != nil {
				return err
			}
			if !ok {
				ch.flags |= flagRenameLinesUnknown
			}
		}
	}
	return nil
}

// lines returns the lines added and deleted from blob a to blob z, -1 and
// -1 when either is binary; ok is false, with no counts, when either is
// missing from the repository.
func (b *builder) lines(ctx context.Context, a, z oid) (add, del int32, ok bool, err error) {
	old, okOld, err := b.blob(ctx, a)
	if err != nil {
		return 0, 0, false, err
	}
	new, okNew, err := b.blob(ctx, z)
	if err != nil {
		return 0, 0, false, err
	}
	if !okOld || !okNew {
		return 0, 0, false, nil
	}
	if isBinary(old) || isBinary(new) {
		return -1, -1, true, nil
	}
	st := textdiff.Count(old, new)
	return int32(st.Additions), int32(st.Deletions), true, nil
}

// side records, for each change of a merge, the file as parent has it, and
// where the parent lacks a file the merge has, its rename source there.
func (b *builder) side(ctx context.Context, p *pending, parent oid) error {
	changes, err := b.store.Changes(ctx, parent.String(), p.id.String())
	if err != nil {
		return err
	}
	diff := make(map[string]wiki.FileChange, len(changes))
	var srcs []*candidate
	for _, fc := range changes {
		diff[fc.Path] = fc
	}
	for i := range p.changes {
		ch := &p.changes[i]
		s := pendingSide{blob: ch.new} // unchanged between parent and merge
		if fc, ok := diff[ch.path]; ok {
			s.blob = mustOID(fc.OldBlob)
		}
		if s.blob.isZero() && !ch.new.isZero() {
			if srcs == nil {
				srcs = []*candidate{}
				for _, fc := range changes {
					if fc.NewBlob != "" {
						continue
					}
					c, err := b.candidate(ctx, fc.Path, mustOID(fc.OldBlob))
					if err != nil {
						return err
					}
					srcs = append(srcs, c)
				}
			}
			dst, err := b.candidate(ctx, ch.path, ch.new)
			if err != nil {
				return err
			}
			if len(srcs) > 0 {
				if si := pairRenames(srcs, []*candidate{dst})[0]; si >= 0 {
					s.from, s.fromBlob = srcs[si].path, srcs[si].blob
				}
			}
		}
		ch.side = append(ch.side, s)
	}
	return nil
}

// mustOID parses an id the store returned; "" is the zero id. The store
// returns full hex ids, so nothing else occurs.
func mustOID(s string) oid {
	id, _ := parseOID(s)
	return id
}
