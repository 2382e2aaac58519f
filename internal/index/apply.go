package index

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// Name is the index's name in logs, errors and progress.
func (x *Index) Name() string { return "search index" }

// indexBatch is how many documents Apply gives apply at a time, and
// largeBatch in an update of largeUpdate changes or more. bleve holds a
// batch analysed in memory, and two are indexed at once: at 100,000 notes
// batches of 500 made a daemon's first build peak at 692–734 MiB, batches
// of 250 at 568–600 MiB; at 10,000 notes, where the memory is small,
// batches of 250 built in 7.6 s against 6.6–7.0 s.
const (
	indexBatch  = 500
	largeBatch  = 250
	largeUpdate = 30000
)

// batchSize is how many documents an update of n changes gives apply at a
// time.
func batchSize(n int) int {
	if n >= largeUpdate {
		return largeBatch
	}
	return indexBatch
}

// Apply brings the index from u.From, its commit, to u.To: it stores the
// document the update gives for every note that changed (Update.Document)
// and removes the deleted notes, batchSize at a time, reporting its
// progress to the update. The notes of the next batch are read and parsed
// while bleve indexes a batch. An interrupted update leaves the index at
// u.From, holding some of the new documents, and the next one applies them
// again. It returns the update's errors and apply's.
func (x *Index) Apply(ctx context.Context, u *wiki.Update) error {
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	if len(changes) >= indexBatch {
		// The words a long update stemmed are not the next edit's.
		defer forgetWords()
	}
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	batches := make(chan docBatch, 1)
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(batches)
		readBatches(ctx, u, changes, batches)
	}()
	var (
		workers  sync.WaitGroup
		slots    = make(chan struct{}, applyWorkers)
		mu       sync.Mutex
		firstErr error
		done     int
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	progress := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if n > done {
			done = n
			u.Progress(done, len(changes))
		}
	}
	failed := func() error {
		mu.Lock()
		defer mu.Unlock()
		return firstErr
	}
	defer func() {
		cancel()
		for range batches {
		}
		<-read // the update is the caller's again
		workers.Wait()
	}()
	first := true
	for b := range batches {
		if b.err != nil {
			fail(b.err)
			break
		}
		if first || b.last {
			// The first batch alone, as it may choose the common words
			// of an empty index; the last alone after every other, as
			// it records u.To.
			workers.Wait()
			if err := failed(); err != nil {
				break
			}
			to := u.From
			if b.last {
				to = u.To
			}
			if err := x.applyBatch(ctx, to, b.docs, b.deleted, b.last); err != nil {
				fail(err)
				break
			}
			first = false
			if !b.last {
				progress(b.done)
			}
			continue
		}
		if err := u.Yield(ctx); err != nil {
			fail(err)
			break
		}
		slots <- struct{}{}
		workers.Add(1)
		go func(b docBatch) {
			defer workers.Done()
			defer func() { <-slots }()
			if err := x.applyBatch(ctx, u.From, b.docs, b.deleted, false); err != nil {
				fail(err)
				return
			}
			progress(b.done)
		}(b)
	}
	workers.Wait()
	if err := failed(); err != nil {
		return err
	}
	return ctx.Err()
}

// applyWorkers is how many batches of a long update bleve indexes at
// once: each makes its own segment, on a core of its own.
const applyWorkers = 2

// docBatch is what Apply gives apply at once: the documents of the notes
// that changed and the paths of those deleted, done of the update's
// changes with them; last for the update's last batch, err when reading
// failed.
type docBatch struct {
	docs    []wiki.Document
	deleted []string
	done    int
	last    bool
	err     error
}

// readBatches sends the update's changes as batches of batchSize notes,
// the last one marked, or stops at the first error, sent, or when ctx is
// done.
func readBatches(ctx context.Context, u *wiki.Update, changes []wiki.FileChange, out chan<- docBatch) {
	size := batchSize(len(changes))
	send := func(b docBatch) bool {
		select {
		case out <- b:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var b docBatch
	for i, ch := range changes {
		if i%64 == 63 {
			if err := u.Yield(ctx); err != nil {
				send(docBatch{err: err})
				return
			}
		}
		p, _, ok := note.SplitFileName(ch.Path)
		if !ok {
			continue
		}
		if ch.Delete {
			b.deleted = append(b.deleted, p)
		} else {
			d, _, err := u.Document(ctx, ch.Path)
			if err != nil {
				send(docBatch{err: err})
				return
			}
			b.docs = append(b.docs, d)
		}
		if len(b.docs)+len(b.deleted) >= size {
			b.done = i + 1
			if !send(b) {
				return
			}
			b = docBatch{}
		}
	}
	b.done, b.last = len(changes), true
	send(b)
}

// apply brings the index to commit `to`: it adds or replaces docs (by
// path), removes the deleted paths and records `to`, all in one bleve
// batch, so a search sees the index before or after the call and the
// recorded commit always matches the content, even after a crash. Apply
// returns once searches see the change; the disk catches up in the
// background (a crash before then reopens the index at an earlier commit).
// apply is idempotent: applying the same change again is harmless. Keep
// batches to a few hundred notes: bleve holds a whole batch, analyzed, in
// memory (10,000 notes in one batch grew the heap past 1 GiB in the
// benchmark, 500 at a time kept it near 250 MiB).
//
// apply returns ErrClosed after Close, the context's error if it is done
// before the write, and an error when a note cannot be mapped or written.
func (x *Index) apply(ctx context.Context, to string, docs []wiki.Document, deleted []string) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	return x.applyBatch(ctx, to, docs, deleted, true)
}

// applyBatch is apply with writeMu held by the caller, who may run
// batches of one update at once: all but its last (last false), which
// records the update's commit and the stem languages of all of them.
func (x *Index) applyBatch(ctx context.Context, to string, docs []wiki.Document, deleted []string, last bool) (err error) {
	defer x.guard(&err)
	defer faultGuard()()
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return ErrClosed
	}
	b := x.bi.NewBatch()
	for _, p := range deleted {
		b.Delete(p)
	}
	c := &compiler{bi: x.bi, im: x.im}
	common := x.common.get()
	if common == nil {
		if n, err := x.bi.DocCount(); err == nil && n == 0 {
			if common = c.chooseCommon(docs); common != nil {
				b.SetInternal(internalCommon, common.encode())
			}
		}
	}
	var added []string // the stem languages new to the index
	for i := range docs {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var pairs []string
		if len(common) > 0 {
			pairs = common.pairs(c.tokens(analyzerText, docs[i].Body))
		}
		f := fields(&docs[i], pairs)
		if lang := addForms(f, &docs[i]); !slices.Contains(x.langs.get(), lang) {
			added, _ = withLang(added, lang)
		}
		if err := b.Index(docs[i].Path, f); err != nil {
			return fmt.Errorf("index note %q: %w", docs[i].Path, err)
		}
	}
	b.SetInternal(internalCommit, []byte(to))
	if err := ctx.Err(); err != nil {
		return err
	}
	// The languages are set before the batch, so that a search that sees
	// its notes looks up their stems; the last batch of an update records
	// those of all its batches.
	if langs, grown := x.langs.add(added); grown || last && len(langs) > 0 {
		b.SetInternal(internalLangs, encodeLangs(langs))
	}
	saved := x.unsaved.add()
	b.SetPersistedCallback(func(error) { saved() })
	if err := x.bi.Batch(b); err != nil {
		saved()
		return fmt.Errorf("write index batch: %w", err)
	}
	if common != nil {
		x.common.set(common)
	}
	x.setCommit(to)
	return nil
}

// setCommit records the commit the index now reflects. Apply holds mu for
// reading, so the field has its own lock.
func (x *Index) setCommit(c string) {
	x.commitMu.Lock()
	x.commit = c
	x.commitMu.Unlock()
}
