package index

import (
	"context"
	"fmt"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// Name is the index's name in logs, errors and progress.
func (x *Index) Name() string { return "search index" }

// indexBatch is how many documents Apply gives apply at a time.
const indexBatch = 500

// Apply brings the index from u.From, its commit, to u.To: it stores the
// document the update gives for every note that changed (Update.Document)
// and removes the deleted notes, indexBatch at a time, reporting its
// progress to the update. An interrupted update leaves the index at
// u.From, holding some of the new documents, and the next one applies them
// again. It returns the update's errors and apply's.
func (x *Index) Apply(ctx context.Context, u *wiki.Update) error {
	changes, err := u.Changes(ctx)
	if err != nil {
		return err
	}
	var docs []wiki.Document
	var deleted []string
	for i, ch := range changes {
		p, _, ok := note.SplitFileName(ch.Path)
		if !ok {
			continue
		}
		if ch.Delete {
			deleted = append(deleted, p)
		} else {
			d, _, err := u.Document(ctx, ch.Path)
			if err != nil {
				return err
			}
			docs = append(docs, d)
		}
		if len(docs)+len(deleted) >= indexBatch {
			if err := x.apply(ctx, u.From, docs, deleted); err != nil {
				return err
			}
			docs, deleted = docs[:0], deleted[:0]
			u.Progress(i+1, len(changes))
		}
	}
	if len(changes) >= indexBatch {
		// The words a long update stemmed are not the next edit's.
		defer forgetWords()
	}
	return x.apply(ctx, u.To, docs, deleted)
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
func (x *Index) apply(ctx context.Context, to string, docs []wiki.Document, deleted []string) (err error) {
	defer x.guard(&err)
	defer faultGuard()()
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
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
	langs, grown := x.langs.get(), false
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
		var added bool
		langs, added = withLang(langs, addForms(f, &docs[i]))
		grown = grown || added
		if err := b.Index(docs[i].Path, f); err != nil {
			return fmt.Errorf("index note %q: %w", docs[i].Path, err)
		}
	}
	b.SetInternal(internalCommit, []byte(to))
	if grown {
		b.SetInternal(internalLangs, encodeLangs(langs))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if grown {
		// Before the batch, so that a search that sees its notes looks
		// up their stems.
		x.langs.set(langs)
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
