package wiki

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/note"
)

// While the search index is built (a fresh clone, a rebuild, a pull of
// thousands of notes), a text search does not wait for it: it answers
// from a scan of the notes at HEAD. The scan reads the notes into a
// scratch index in memory, which has the index's mapping and query
// compiler, so a note it finds matches the query exactly as the index
// would match it; only the ranking is over the notes read so far. Notes
// that hold the query's words, as raw text, are read first, so that a
// page fills with the notes most likely to match; the scan stops once a
// page is full and scanSoft has passed, or at scanHard whatever it has
// found; the notes put off are read while scanSoft lasts. It says how
// many notes it searched (SearchResult.Scan).

// ScratchIndex is a search index in memory for one search (see
// Index.Scratch): the notes added to it, searched with the semantics of
// the index it came from.
type ScratchIndex interface {
	// Add indexes notes.
	Add(ctx context.Context, docs []Document) error
	// Search is Index.Search over the notes added so far.
	Search(ctx context.Context, req SearchRequest) (*SearchResult, error)
	// Close releases it.
	Close() error
}

// ScanInfo says that a search answered from a scan of the notes at HEAD
// while the search index was being built: it read Scanned of Notes notes,
// and its total counts the matches among those.
type ScanInfo struct {
	Scanned, Notes int
}

// Budgets of a scan: it stops once a page is full and scanSoft has
// passed, and at scanHard in any case.
const (
	scanSoft = 700 * time.Millisecond
	scanHard = 15 * time.Second
)

// scanBatch is how many notes a scan adds to its scratch index at a time.
const scanBatch = 128

// scanWorkers read and parse notes in parallel.
const scanWorkers = 3

// scans reports whether a text search answers from a scan: the index is
// being built (or not begun), and the search needs nothing the scan lacks.
// A date term, a date sort or filter needs git's dates, which the history
// index gives while it is built too; a cursor belongs to the index.
func (w *Wiki) scans(req SearchRequest) bool {
	st := w.indexLane.state()
	if !st.Building && st.Commit != "" {
		return false
	}
	switch req.Sort {
	case "", "relevance", "title":
	default:
		return false
	}
	if req.Cursor != "" || !req.ModifiedSince.IsZero() {
		return false
	}
	for _, t := range req.Query.Terms() {
		if t.Field == grammar.FieldCreated || t.Field == grammar.FieldModified {
			return false
		}
	}
	return true
}

// textSearch runs a text search: from a scan of HEAD while the index is
// built (see scans), else from the index brought to HEAD.
func (w *Wiki) textSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if w.scans(req) {
		return w.scanSearch(ctx, req)
	}
	if err := w.refreshIndex(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return w.index.Search(ctx, req)
}

// scanned is one note a scan read: its document, or its path alone when
// the scan put it off (it lacks some of the query's words).
type scanned struct {
	file string
	doc  Document
	tier int // 0: holds every literal group, 1: some, 2: none
}

// scanSearch answers a text search from the notes at HEAD (see the top of
// this file). Its result has no cursor: pages of a scan do not line up
// with the index's.
func (w *Wiki) scanSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	all, err := snap.Files(ctx, req.Folder)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var files []string
	for _, f := range all {
		if _, _, ok := note.SplitFileName(f.Path); ok {
			files = append(files, f.Path)
		}
	}
	scratch, err := w.index.Scratch()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer scratch.Close()

	s := &scan{w: w, ctx: ctx, req: req, snap: snap, scratch: scratch, lits: scanLiterals(req),
		start: start, notes: len(files), nextReport: start.Add(progressEvery)}
	s.need = req.Limit
	if s.need <= 0 {
		s.need = 10
	}
	// First every note, adding those with all the literals; then the
	// notes put off, those with some of them first.
	later, err := s.run(files, true)
	if err != nil {
		return nil, err
	}
	if !s.done {
		var some, none []string
		for _, sc := range later {
			if sc.tier == 1 {
				some = append(some, sc.file)
			} else {
				none = append(none, sc.file)
			}
		}
		if _, err := s.run(append(some, none...), false); err != nil {
			return nil, err
		}
	}
	res, err := scratch.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	res.NextCursor = ""
	res.Scan = &ScanInfo{Scanned: s.added, Notes: s.notes}
	w.log.Debug("search answered from a scan", "scanned", s.added, "notes", s.notes, "took", time.Since(start))
	return res, nil
}

// scan is the state of one scanSearch.
type scan struct {
	w       *Wiki
	ctx     context.Context
	req     SearchRequest
	snap    Snapshot
	scratch ScratchIndex
	lits    [][]string
	need    int

	start      time.Time
	nextReport time.Time
	notes      int
	read       int // notes read, some of them put off
	added      int // notes in the scratch index
	done       bool
}

// run reads files, scanBatch at a time in parallel, and adds them to the
// scratch index; with sift, only those with every literal, and it returns
// the others, put off. It stops early, setting done, when the budgets say
// so (see enough).
func (s *scan) run(files []string, sift bool) ([]scanned, error) {
	var later []scanned
	batch := make([]Document, 0, scanBatch)
	chunk := make([]scanned, scanBatch)
	for len(files) > 0 {
		n := min(len(files), scanBatch)
		if err := s.readAll(files[:n], chunk[:n], sift); err != nil {
			return nil, err
		}
		files = files[n:]
		s.read += n
		for _, sc := range chunk[:n] {
			if sc.tier > 0 && sift {
				later = append(later, scanned{file: sc.file, tier: sc.tier})
				continue
			}
			batch = append(batch, sc.doc)
		}
		if len(batch) >= scanBatch/2 || len(files) == 0 {
			if err := s.scratch.Add(s.ctx, batch); err != nil {
				return nil, fmt.Errorf("search: scan: %w", err)
			}
			s.added += len(batch)
			batch = batch[:0]
			if s.enough(sift) {
				s.done = true
				return later, nil
			}
		}
		s.report()
	}
	return later, nil
}

// readAll reads files into out in parallel, scanWorkers at a time: each
// note's document, and its tier by the literals it holds. With sift, a
// note that lacks some literal is not parsed.
func (s *scan) readAll(files []string, out []scanned, sift bool) error {
	var wg sync.WaitGroup
	errs := make([]error, scanWorkers)
	for k := range scanWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(files); i += scanWorkers {
				if errs[k] = s.ctx.Err(); errs[k] != nil {
					return
				}
				out[i], errs[k] = s.readNote(files[i], sift)
				if errs[k] != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readNote reads one note of the snapshot, with its tier.
func (s *scan) readNote(file string, sift bool) (scanned, error) {
	f, content, err := s.snap.Read(s.ctx, file)
	if err != nil {
		return scanned{}, fmt.Errorf("search: scan %s: %w", file, err)
	}
	sc := scanned{file: file, tier: tier(content, s.lits)}
	if sift && sc.tier > 0 {
		return sc, nil
	}
	p, _, _ := note.SplitFileName(file)
	// Git's dates come with the history index; the frontmatter's are here.
	sc.doc = document(note.ParseIn(p, content, s.w.opts.Location), f, FileTimes{})
	return sc, nil
}

// enough reports whether the scan may stop: scanHard has passed; or
// scanSoft has and a page is full; or, with the notes put off (which only
// match by another form of a word, if at all), scanSoft alone.
func (s *scan) enough(sift bool) bool {
	elapsed := time.Since(s.start)
	switch {
	case elapsed >= scanHard:
		return true
	case elapsed < scanSoft:
		return false
	case !sift:
		return true
	}
	probe := s.req
	probe.Snippets = 0
	res, err := s.scratch.Search(s.ctx, probe)
	return err == nil && len(res.Results) >= s.need
}

// report tells the caller how far the scan is, every progressEvery.
func (s *scan) report() {
	if now := time.Now(); now.After(s.nextReport) {
		reportProgress(s.ctx, Progress{Done: s.read, Total: s.notes, Message: "reading the notes while the search index is built"})
		s.nextReport = now.Add(progressEvery)
	}
}

// scanLiterals returns the literals of a search's terms that a note must
// hold, as lowercased raw text, to match them as written: for each term
// not negated (of the free text, the title, or a tag), the beginnings of
// its words. A word's other forms share its beginning ("plugin" and
// "plugins", "happy" and "happiness"), so a beginning is kept, not the
// whole word. They only order the scan: a note without them is read too,
// later, in case it holds another form.
func scanLiterals(req SearchRequest) [][]string {
	var lits [][]string
	add := func(value string, prefix bool) {
		var words []string
		for _, w := range strings.FieldsFunc(strings.ToLower(value), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			words = append(words, beginning(w, prefix))
		}
		if len(words) > 0 {
			lits = append(lits, words)
		}
	}
	var walk func(n grammar.Node, positive bool)
	walk = func(n grammar.Node, positive bool) {
		switch n := n.(type) {
		case *grammar.And:
			for _, c := range n.Nodes {
				walk(c, positive)
			}
		case *grammar.Or:
			for _, c := range n.Nodes {
				walk(c, positive)
			}
		case *grammar.Not:
			walk(n.Node, !positive)
		case *grammar.Term:
			if !positive {
				return
			}
			switch n.Field {
			case grammar.FieldText, grammar.FieldTitle, grammar.FieldTag:
				add(n.Value, n.Prefix)
			}
		}
	}
	if req.Query != nil && req.Query.Root != nil {
		walk(req.Query.Root, true)
	}
	for _, t := range req.Tags {
		add(t, false)
	}
	return lits
}

// beginning returns the part of a lowercased word that its other forms
// share: the whole of a prefix, of a short word or of one beyond ASCII
// (whose forms a byte prefix cannot be trusted to cover), else its first
// three fifths, four bytes at least.
func beginning(w string, prefix bool) string {
	if prefix || len(w) <= 4 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return w
		}
	}
	return w[:max(4, (len(w)*3+4)/5)]
}

// tier is 0 for content that holds every literal group (all the words of
// each), 1 for content that holds some group, and 2 for the rest.
func tier(content []byte, lits [][]string) int {
	if len(lits) == 0 {
		return 0
	}
	lower := bytes.ToLower(content)
	held := 0
	for _, group := range lits {
		all := true
		for _, w := range group {
			if !bytes.Contains(lower, []byte(w)) {
				all = false
				break
			}
		}
		if all {
			held++
		}
	}
	switch held {
	case len(lits):
		return 0
	case 0:
		return 2
	}
	return 1
}
