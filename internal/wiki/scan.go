package wiki

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/note"
)

// While the search index is built (a fresh clone, a rebuild, a pull of
// thousands of notes), a text search does not wait for it: it answers
// from a scan of the notes at HEAD, in rounds. Each round reads more of
// the notes as raw text, for scanRead at most, and weighs every note read
// so far by the query's words it holds (scanLiterals), rare words weighing
// more and words in the path most. Then it parses the scanPick heaviest
// (of those that hold any, when the query has words) into a scratch index
// in memory, which has the index's mapping and query compiler, and runs
// the search there: a note it finds matches the query exactly as the index
// would match it, and the ranking is the index's over those notes. The
// scan stops once it has a page of hits, or has read every note and
// searched every one that may match (then the answer is the index's:
// complete), or once the index is built, which then answers. What it
// read is kept for the next scan (scanCache), which goes on from there.
// The result says how many notes were read and how many searched, and
// whether that is all of them (SearchResult.Scan).

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
// while the search index was being built: it read Read of Notes notes
// for the query's words and searched the Searched most likely to match;
// its total counts the matches among those. Complete says that the scan
// read every note and searched every one that may match, so the answer is
// the one the index gives; when it is false, notes not searched may match
// too, and no hits does not mean that no note matches.
type ScanInfo struct {
	Read, Searched, Notes int
	Complete              bool
}

// scanRead bounds a round of a scan's reading of the notes as text.
const scanRead = time.Second

// scanWait bounds how long a scan goes on before it answers with what it
// found, complete or not, well within a client's usual 60 s timeout.
const scanWait = 40 * time.Second

// scanPick is how many notes a scan searches: the most likely to match,
// at least ten pages of the search's.
func scanPick(limit int) int {
	return min(max(300, 10*limit), 1000)
}

// scanPage is the page a search without a limit gets (the index's
// default).
const scanPage = 10

// scanWorkers read notes in parallel.
const scanWorkers = 3

// scanChunk is how many notes the workers read between two looks at the
// clock and the context.
const scanChunk = 256

// scans reports whether a text search answers from a scan: the wiki is
// Serving, its index is being built (or not yet begun), and the search
// needs nothing the scan lacks: a search by date must find every note of
// its dates, and a cursor belongs to the index.
func (w *Wiki) scans(req SearchRequest) bool {
	// Not begun is the moment before a first build starts; after one that
	// failed, the search asks for the index, which tries again.
	st := w.indexLane.state()
	if !w.opts.Serving || !st.Building && (st.Commit != "" || st.Error != "") {
		return false
	}
	return req.Cursor == "" && !req.NeedsDates()
}

// textSearch runs a text search: from a scan of HEAD while the index is
// built (see scans), else from the index brought to HEAD.
func (w *Wiki) textSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if w.scans(req) {
		return w.scanSearch(ctx, req)
	}
	return w.indexSearch(ctx, req)
}

// indexSearch runs a text search on the index brought to HEAD.
func (w *Wiki) indexSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	if err := w.refreshIndex(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dates, err := w.searchDates(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	req.GitDates = dates
	return w.index.Search(ctx, req)
}

// scanSearch answers a text search from the notes at HEAD (see the top of
// this file), or from the index when it is built meanwhile. Its result has
// no cursor: pages of a scan do not line up with the index's. Only its
// first round counts as a search in the foreground (see foreground): a
// scan that goes on shares the machine with the build, which may answer
// first.
func (w *Wiki) scanSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	w.scanning.begin()
	foreground := true
	defer func() {
		if foreground {
			w.scanning.end()
		}
		if !w.scans(req) {
			w.scanned.drop() // built while it read: what it kept is not needed
		}
	}()
	// The progress reports start before the notes are listed, which took
	// a second on a busy machine.
	s := &scan{ctx: ctx, cache: &w.scanned, lits: scanLiterals(req), linked: linkedSet(req)}
	defer s.reportEvery()()
	// A query the index cannot compile, or a bad limit, fails here, on
	// an empty scratch index, before any note is read.
	if _, err := w.scratchSearch(ctx, req, nil); err != nil {
		return nil, err
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	all, _, err := w.noteFiles(ctx, snap, true)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	files := all
	if req.Folder != "" || req.Paths != nil {
		files = nil
		for _, f := range all {
			p, _, _ := note.SplitFileName(f)
			if (req.Folder == "" || strings.HasPrefix(f, req.Folder+"/")) && (req.Paths == nil || slices.Contains(req.Paths, p)) {
				files = append(files, f)
			}
		}
	}
	s.snap = snap
	s.notes.Store(int64(len(files)))
	held := len(s.lits) > 0 || s.linked != nil
	page := cmp.Or(req.Limit, scanPage)
	n := scanPick(req.Limit)
	var res *SearchResult
	var searched []string
	complete := false
	for {
		built := func() bool { return !w.scans(req) }
		if err := s.readFor(files, scanRead, built); err != nil {
			return nil, err
		}
		if built() {
			w.log.Debug("search answered by the index, built during its scan", "read", len(s.paths), "notes", len(files), "took", time.Since(start))
			return w.indexSearch(ctx, req)
		}
		weights := s.weights()
		picked := pick(s.paths, weights, n, held)
		if res == nil && len(picked) > 0 || !slices.Equal(picked, searched) {
			docs, err := s.docs(w, picked)
			if err != nil {
				return nil, err
			}
			if res, err = w.scratchSearch(ctx, req, docs); err != nil {
				return nil, err
			}
			searched = picked
		}
		read := len(s.paths) == len(files)
		complete = read && len(picked) == candidates(weights, held)
		if complete || res != nil && len(res.Results) >= page || time.Since(start) >= scanWait {
			break
		}
		if read {
			n *= 2 // every note read: search more of those that may match
		}
		if foreground {
			w.scanning.end()
			foreground = false
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if res == nil {
		if res, err = w.scratchSearch(ctx, req, nil); err != nil {
			return nil, err
		}
	}
	res.NextCursor = ""
	res.Scan = &ScanInfo{Read: len(s.paths), Searched: len(searched), Notes: len(files), Complete: complete}
	w.log.Debug("search answered from a scan", "read", len(s.paths), "searched", len(searched), "notes", len(files),
		"complete", complete, "kept", w.scanned.len(), "took", time.Since(start))
	return res, nil
}

// scratchSearch runs a search on a scratch index of docs.
func (w *Wiki) scratchSearch(ctx context.Context, req SearchRequest, docs []Document) (*SearchResult, error) {
	scratch, err := w.index.Scratch()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer scratch.Close()
	if len(docs) > 0 {
		if err := scratch.Add(ctx, docs); err != nil {
			return nil, fmt.Errorf("search: scan: %w", err)
		}
	}
	return scratch.Search(ctx, req)
}

// candidates counts the notes that may match: with held, those that hold
// some literal (a weight above 0), else all.
func candidates(weights []float64, held bool) int {
	if !held {
		return len(weights)
	}
	n := 0
	for _, wt := range weights {
		if wt > 0 {
			n++
		}
	}
	return n
}

// scan is the state of one scanSearch.
type scan struct {
	ctx   context.Context
	snap  Snapshot
	cache *scanCache
	lits  [][]string
	// linked holds the notes the link graph gives for the search's link
	// terms and backlinks filter, nil when it has none.
	linked map[string]bool
	notes  atomic.Int64 // the notes to read, for the progress reports
	// paths are the notes read so far, in the order of the files, and
	// found what each holds.
	paths []string
	found []held
	read  atomic.Int64 // len(paths), for the progress reports
}

// held is what a note read holds of a scan's query.
type held struct {
	text, path uint64   // bit g: group g held
	tf         []uint16 // occurrences of each group's first literal
	linked     bool     // in scan.linked
}

// readFor reads the files after those read so far, scanChunk at a time,
// until they are all read, d has passed or stop reports true, and notes
// what each holds of the query's literals.
func (s *scan) readFor(files []string, d time.Duration, stop func() bool) error {
	groups := min(len(s.lits), 64)
	start := time.Now()
	for at := len(s.paths); at < len(files); at = len(s.paths) {
		if at > 0 && (time.Since(start) >= d || stop()) {
			break
		}
		chunk := files[at:min(at+scanChunk, len(files))]
		got := make([]held, len(chunk))
		err := s.each(chunk, func(i int, f File, content []byte) {
			lower := bytes.ToLower(content)
			lowerPath := strings.ToLower(f.Path)
			h := held{tf: make([]uint16, groups)}
			for g, group := range s.lits[:groups] {
				if holdsAll(lower, group) {
					h.text |= 1 << g
					h.tf[g] = uint16(min(bytes.Count(lower, []byte(group[0])), math.MaxUint16))
				}
				if holdsAll([]byte(lowerPath), group) {
					h.path |= 1 << g
				}
			}
			if s.linked != nil {
				p, _, _ := note.SplitFileName(f.Path)
				h.linked = s.linked[p]
			}
			got[i] = h
		})
		if err != nil {
			return err
		}
		s.paths = append(s.paths, chunk...)
		s.found = append(s.found, got...)
		s.read.Store(int64(len(s.paths)))
	}
	return nil
}

// weights returns the weight of each note read: the sum, over the literal
// groups a note holds, of the group's inverse document frequency among the
// notes read, tripled when its path holds it too, and raised a little by
// how often the text does; and as much as a group in the path for a note
// the link graph gave.
func (s *scan) weights() []float64 {
	groups := min(len(s.lits), 64)
	df := make([]int, groups)
	for _, h := range s.found {
		for g := range groups {
			if (h.text|h.path)&(1<<g) != 0 {
				df[g]++
			}
		}
	}
	weights := make([]float64, len(s.found))
	linkedWeight := 3 * math.Log(1+float64(len(s.found))/float64(max(len(s.linked), 1)))
	for i, h := range s.found {
		if h.linked {
			weights[i] += linkedWeight
		}
		for g := range groups {
			bit := uint64(1) << g
			if (h.text|h.path)&bit == 0 {
				continue
			}
			wt := math.Log(1+float64(len(s.found))/float64(df[g])) * (1 + 0.3*math.Log1p(float64(h.tf[g])))
			if h.path&bit != 0 {
				wt *= 3
			}
			weights[i] += wt
		}
	}
	return weights
}

// docs parses the picked notes as the index would.
func (s *scan) docs(w *Wiki, picked []string) ([]Document, error) {
	docs := make([]Document, len(picked))
	err := s.each(picked, func(i int, f File, content []byte) {
		p, _, _ := note.SplitFileName(f.Path)
		// Git's dates come with the history index; the frontmatter's
		// are here.
		docs[i] = document(note.ParseIn(p, content, w.opts.Location), f)
	})
	if err != nil {
		return nil, err
	}
	return docs, nil
}

// linkedSet returns the notes the link graph gave for a search's link
// terms and backlinks filter (SearchRequest.Linked), nil when it has none.
func linkedSet(req SearchRequest) map[string]bool {
	if len(req.Linked) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, paths := range req.Linked {
		for _, p := range paths {
			set[p] = true
		}
	}
	return set
}

// holdsAll reports whether lowered text holds every literal of a group.
func holdsAll(lower []byte, group []string) bool {
	for _, l := range group {
		if !bytes.Contains(lower, []byte(l)) {
			return false
		}
	}
	return true
}

// pick returns the n heaviest files, heaviest first, in path order among
// equals; with held, only those that hold some literal.
func pick(files []string, weights []float64, n int, held bool) []string {
	order := make([]int, 0, len(files))
	for i := range files {
		if !held || weights[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(weights[b], weights[a]) })
	out := make([]string, 0, min(n, len(order)))
	for _, i := range order[:min(n, len(order))] {
		out = append(out, files[i])
	}
	return out
}

// each reads files in parallel, scanWorkers at a time, and calls fn with
// each one's index and content; fn may run concurrently for different
// files. A file the cache keeps is not read again; one read is kept.
func (s *scan) each(files []string, fn func(i int, f File, content []byte)) error {
	var wg sync.WaitGroup
	errs := make([]error, scanWorkers)
	commit := s.snap.Commit()
	for k := range scanWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < len(files); i += scanWorkers {
				if errs[k] = s.ctx.Err(); errs[k] != nil {
					return
				}
				t, ok := s.cache.get(commit, files[i])
				if !ok {
					f, content, err := s.snap.Read(s.ctx, files[i])
					if err != nil {
						errs[k] = fmt.Errorf("search: scan %s: %w", files[i], err)
						return
					}
					t = scanText{file: f, content: content}
					s.cache.put(commit, t)
				}
				fn(i, t.file, t.content)
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

// reportEvery tells the caller how many notes the scan has read, every
// progressEvery from now until the function it returns is called, which
// returns once the reports have stopped.
func (s *scan) reportEvery() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				reportProgress(s.ctx, Progress{Done: int(s.read.Load()), Total: int(s.notes.Load()), Message: "reading the notes while the search index is built"})
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// scanLiterals returns, for each term of a search not negated, the
// literals a note holds, as lowercased raw text with its path, when it
// matches the term as written: the beginnings of the words of its value
// (and of its key, for a property). A word's other forms share its
// beginning ("plugin" and "plugins", "happy" and "happiness"), so a
// beginning is kept, not the whole word. They only weigh the notes for a
// scan (see weigh): which match is the scratch index's to say.
func scanLiterals(req SearchRequest) [][]string {
	var lits [][]string
	add := func(prefix bool, values ...string) {
		var words []string
		for _, v := range values {
			for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
				return !unicode.IsLetter(r) && !unicode.IsDigit(r)
			}) {
				words = append(words, beginning(w, prefix))
			}
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
			case grammar.FieldCreated, grammar.FieldModified, grammar.FieldLinks, grammar.FieldLinkedFrom:
				// Nothing a note holds as written: dates, or links,
				// which the link graph resolves by title and alias
				// too (see scan.linked).
			case grammar.FieldText, grammar.FieldTitle, grammar.FieldTag, grammar.FieldFolder, grammar.FieldPath:
				add(n.Prefix, n.Value)
			default: // a property
				add(n.Prefix, n.Field, n.Value)
			}
		}
	}
	if req.Query != nil && req.Query.Root != nil {
		walk(req.Query.Root, true)
	}
	for _, t := range req.Tags {
		add(false, t)
	}
	return lits
}

// beginning returns the part of a lowercased word that its other forms
// share: the whole of a prefix, of a short word or of one beyond ASCII
// (whose forms a byte prefix cannot be trusted to cover), else its first
// half, four bytes at least: "happiness" and "happy" share "happ".
func beginning(w string, prefix bool) string {
	if prefix || len(w) <= 4 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return w
		}
	}
	return w[:max(4, len(w)/2)]
}
