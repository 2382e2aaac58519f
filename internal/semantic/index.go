// Package semantic is the semantic index: a wiki's notes cut into chunks
// (their sections, up to 1,500 bytes), embedded by a model, and searched by
// cosine similarity. It implements wiki.Semantic.
//
// A vector is kept under the hash of the text it embeds, so a note that
// moves, or a section that does not change, is never embedded again. The
// vectors live in one file under the wiki's derived-state folder, written
// once per vector. Which note holds which chunk is saved when the index
// closes, and otherwise recomputed from the commits when it opens, which
// costs reading the notes but no embedding. Embedding runs in the
// background: a commit is indexed at once, and its new chunks wait for
// their vectors (State().Pending).
package semantic

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// Embedder turns texts into vectors; embed.Client is one.
type Embedder interface {
	// Model names the model: vectors of two names are not comparable.
	Model() string
	// Endpoint says where the model runs, for the status.
	Endpoint() string
	// BatchSize is how many texts one call should embed.
	BatchSize() int
	// Embed returns one vector per text, all of one length.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// QueryEmbedder is an Embedder that embeds a query otherwise than the texts
// it finds: a model trained with an instruction before its queries.
type QueryEmbedder interface {
	Embedder
	// EmbedQuery returns the vector of a query.
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
}

// Options configure an Index.
type Options struct {
	Logger *slog.Logger
	// Retry is how long the background embedding waits after the
	// embedder failed; default 30s.
	Retry time.Duration
	// Reads says whether the model can read a chunk's text: enough of its
	// words are known to it. A chunk it cannot read is not embedded, and a
	// note with no such chunk is ranked by text alone. Nil: it reads all.
	Reads func(text string) bool
	// Static, when set, is a static model that embeds every chunk at once
	// (word vectors): it ranks by meaning the notes that wait for the
	// model's vectors, until the model has embedded them.
	Static Embedder
	// Workers is how many batches the background embedding embeds at
	// once; default 1. A search by meaning holds them all back while it
	// runs, and one of them for quietAfter after.
	Workers int
	// Share, when set, is told how many cores the embedder may spread a
	// batch over: GOMAXPROCS-1 (at least 1) from when a search by meaning
	// begins while chunks wait until none came for quietAfter, then 0 for
	// all of them.
	Share func(cores int)
	// Threshold is the least cosine similarity a semantic name resolution
	// needs with the model's vectors (SemanticState.Threshold); 0 for the
	// wiki's default.
	Threshold float64
	// TextShare is the text ranking's weight in a hybrid search's fusion
	// with the model's ranking by meaning (SemanticState.TextShare); 0 for
	// the wiki's default.
	TextShare float64
}

type hash [sha256.Size]byte

// chunk is a note's chunk as the index holds it: the hash of its text, its
// vector's slot once embedded (-1 before), and its lines.
type chunk struct {
	hash       hash
	slot       int32
	start, end int32
}

// entry is one note and its chunks.
type entry struct {
	path   string
	chunks []*chunk
	// unread is set for a note with text of which the model reads none.
	unread bool
}

// Index is the semantic index of one wiki.
type Index struct {
	dir  string
	emb  Embedder
	log  *slog.Logger
	opts Options

	mu     sync.RWMutex
	commit string
	vs     *vectors
	notes  []*entry
	byPath map[string]int
	chunks int // chunks of all notes
	unread int // notes of which the model reads no text
	// texts are the texts waiting for a vector, by hash; queue is their
	// order, and waiting the chunks that take the vector.
	texts   map[hash]string
	queue   []hash
	waiting map[hash][]*chunk
	lastErr string
	// savedAt is the commit of the notes the notes' file holds, "" when
	// it holds none or others.
	savedAt string

	// taken marks the texts a worker is embedding.
	taken map[hash]bool
	// static holds the static model's vectors of the texts waiting, by
	// hash (see static.go).
	static map[hash][]float32

	queries       queryCache
	staticQueries queryCache
	busy          searches
	shareMu       sync.Mutex
	shared        int // what Share was last told
	rate          meter
	moves         moves
	wake          chan struct{}
	cancel        context.CancelFunc
	done          chan struct{}
}

var _ wiki.Semantic = (*Index)(nil)

// Open opens the semantic index in dir, creating it, and starts embedding
// in the background. Vectors made by another model than emb's are
// dropped. It returns an error when dir cannot be created or read.
func Open(ctx context.Context, dir string, emb Embedder, opts Options) (*Index, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Retry == 0 {
		opts.Retry = 30 * time.Second
	}
	opts.Workers = max(1, opts.Workers)
	vs, err := openVectors(dir, emb.Model())
	if err != nil {
		return nil, err
	}
	x := &Index{
		dir: dir, emb: emb, log: opts.Logger.WithGroup("semantic"), opts: opts, vs: vs,
		byPath: map[string]int{}, texts: map[hash]string{}, waiting: map[hash][]*chunk{},
		taken: map[hash]bool{}, static: map[hash][]float32{},
		wake: make(chan struct{}, 1), done: make(chan struct{}),
	}
	x.loadNotes()
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	x.cancel = cancel
	go x.embedLoop(bg)
	return x, nil
}

// Close stops the background embedding, saves the notes' chunks for the
// next start, and closes the vectors' file.
func (x *Index) Close(ctx context.Context) error {
	x.cancel()
	<-x.done
	x.mu.Lock()
	defer x.mu.Unlock()
	return errors.Join(x.saveNotes(), x.vs.close())
}

// Name is the store's name in logs and progress.
func (x *Index) Name() string { return "semantic index" }

// Commit returns the commit whose notes the index holds, "" when empty.
func (x *Index) Commit() string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.commit
}

// Reset forgets the notes; the vectors stay, for the chunks that come
// back.
func (x *Index) Reset(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.commit, x.notes, x.byPath, x.chunks, x.unread = "", nil, map[string]int{}, 0, 0
	x.texts, x.queue, x.waiting, x.static = map[hash]string{}, nil, map[hash][]*chunk{}, map[hash][]float32{}
	x.moves.moved()
	return nil
}

// noteUpdate is one note's new chunks, or its removal.
type noteUpdate struct {
	path   string
	delete bool
	chunks []Chunk
	unread bool
}

// Apply takes the notes that changed from u.From to u.To: their chunks
// are replaced, and the texts without a vector are queued for the
// background embedding. It reads the notes before it takes the index, so
// searches go on meanwhile, and changes the index at once.
func (x *Index) Apply(ctx context.Context, u *wiki.Update) error {
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	var ups []noteUpdate
	for i, ch := range changes {
		p, _, ok := note.SplitFileName(ch.Path)
		if !ok {
			continue
		}
		if ch.Delete {
			ups = append(ups, noteUpdate{path: p, delete: true})
			continue
		}
		n, _, _, err := u.Note(ctx, ch.Path)
		if err != nil {
			return err
		}
		up := noteUpdate{path: p, chunks: Chunks(n)}
		up.chunks, up.unread = x.readable(up.chunks)
		ups = append(ups, up)
		if i%500 == 499 {
			if err := ctx.Err(); err != nil {
				return err
			}
			u.Progress(i+1, len(changes))
		}
	}
	static := x.staticVectors(ctx, ups)
	x.mu.Lock()
	var gone []hash
	for _, up := range ups {
		gone = x.remove(up.path, gone)
		if !up.delete {
			x.add(up.path, up.chunks, up.unread, static)
		}
	}
	x.unqueue(gone)
	x.commit = u.To
	if u.From == "" {
		if err := x.compact(); err != nil {
			x.log.Warn("compacting the vectors failed", "err", err)
		}
	}
	x.mu.Unlock()
	x.moves.moved()
	x.signal()
	return nil
}

// remove drops a note, and appends to gone the hashes of its chunks that
// waited for a vector. The caller holds mu.
func (x *Index) remove(path string, gone []hash) []hash {
	i, ok := x.byPath[path]
	if !ok {
		return gone
	}
	for _, c := range x.notes[i].chunks {
		if c.slot < 0 {
			x.waiting[c.hash] = slices.DeleteFunc(x.waiting[c.hash], func(w *chunk) bool { return w == c })
			gone = append(gone, c.hash)
		}
	}
	x.chunks -= len(x.notes[i].chunks)
	if x.notes[i].unread {
		x.unread--
	}
	last := len(x.notes) - 1
	x.notes[i] = x.notes[last]
	x.byPath[x.notes[i].path] = i
	x.notes = x.notes[:last]
	delete(x.byPath, path)
	return gone
}

// unqueue forgets the texts of gone that no chunk waits for any more (their
// notes were edited or deleted before they were embedded), so that the
// model does not embed them. The caller holds mu.
func (x *Index) unqueue(gone []hash) {
	for _, h := range gone {
		if len(x.waiting[h]) == 0 {
			delete(x.waiting, h)
			delete(x.texts, h)
			delete(x.static, h)
		}
	}
}

// add adds a note's chunks, queueing the texts that have no vector, with
// their static vectors when static has them. The caller holds mu.
func (x *Index) add(path string, chunks []Chunk, unread bool, static map[hash][]float32) {
	e := &entry{path: path, chunks: make([]*chunk, len(chunks)), unread: unread}
	for i, c := range chunks {
		h := hash(sha256.Sum256([]byte(c.Text)))
		ch := &chunk{hash: h, slot: -1, start: int32(c.Start), end: int32(c.End)}
		if slot, ok := x.vs.slots[h]; ok {
			ch.slot = slot
		} else {
			if _, queued := x.texts[h]; !queued {
				x.texts[h] = c.Text
				x.queue = append(x.queue, h)
			}
			if v, ok := static[h]; ok {
				x.static[h] = v
			}
			x.waiting[h] = append(x.waiting[h], ch)
		}
		e.chunks[i] = ch
	}
	x.byPath[path] = len(x.notes)
	x.notes = append(x.notes, e)
	x.chunks += len(chunks)
	if unread {
		x.unread++
	}
}

// readable returns the chunks the model reads, and whether it reads none
// of a note's chunks when it has some.
func (x *Index) readable(chunks []Chunk) ([]Chunk, bool) {
	if x.opts.Reads == nil || len(chunks) == 0 {
		return chunks, false
	}
	out := chunks[:0:0]
	for _, c := range chunks {
		if x.opts.Reads(c.Text) {
			out = append(out, c)
		}
	}
	return out, len(out) == 0
}

// compact rewrites the vectors' file with only the vectors of the notes'
// chunks, once more than half of it is of chunks gone. The caller holds
// mu.
func (x *Index) compact() error {
	if x.vs.len() <= 2*x.chunks+1024 {
		return nil
	}
	live := make(map[hash]bool, x.chunks)
	for _, e := range x.notes {
		for _, c := range e.chunks {
			if c.slot >= 0 {
				live[c.hash] = true
			}
		}
	}
	moved, err := x.vs.keep(live)
	if err != nil {
		return err
	}
	for _, e := range x.notes {
		for _, c := range e.chunks {
			if c.slot >= 0 {
				c.slot = moved[c.slot]
			}
		}
	}
	return nil
}

// State says how far the embedding is.
func (x *Index) State() wiki.SemanticState {
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := wiki.SemanticState{
		Provider: x.emb.Endpoint(), Model: x.emb.Model(), Dimensions: x.vs.dims,
		Notes: len(x.notes), Chunks: x.chunks, Pending: len(x.texts), Error: x.lastErr,
		Threshold: x.opts.Threshold, TextShare: x.opts.TextShare,
	}
	st.Unread = x.unread
	if x.opts.Static != nil {
		st.Static = x.opts.Static.Model()
	}
	if st.Rate = x.rate.rate(time.Now()); st.Rate > 0 && st.Pending > 0 {
		st.ETASeconds = max(1, int(float64(st.Pending)/st.Rate+0.5))
	}
	if st.Pending > 0 {
		for _, e := range x.notes {
			for _, c := range e.chunks {
				if c.slot < 0 {
					st.Unembedded++
					break
				}
			}
		}
	}
	return st
}
