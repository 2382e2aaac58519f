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
	"time"
	"unicode"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/note"
)

// While the search index is built (a fresh clone, a rebuild, a pull of
// thousands of notes), a text search does not wait for it: it answers
// from a scan of the notes at HEAD, in two passes. The first reads the
// notes as raw text and weighs each by the query's words it holds
// (scanLiterals), rare words weighing more and words in the path most,
// for scanRead at most. The second parses the scanPick heaviest (of those
// that hold any, when the query has words) into a scratch index in
// memory, which has the index's mapping and query compiler, and runs the
// search there: a note it finds matches the query exactly as the index
// would match it, and the ranking is the index's over those notes. The
// result says how many notes were read and how many searched
// (SearchResult.Scan).

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
// its total counts the matches among those.
type ScanInfo struct {
	Read, Searched, Notes int
}

// scanRead bounds a scan's first pass, which reads the notes as text.
const scanRead = time.Second

// scanPick is how many notes a scan searches: the most likely to match,
// at least ten pages of the search's.
func scanPick(limit int) int {
	return min(max(300, 10*limit), 1000)
}

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
// this file). Its result has no cursor: pages of a scan do not line up
// with the index's.
func (w *Wiki) scanSearch(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	start := time.Now()
	w.scanning.begin()
	defer w.scanning.end()
	scratch, err := w.index.Scratch()
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer scratch.Close()
	// A query the index cannot compile, or a bad limit, fails here, on
	// the empty scratch index, before any note is read.
	if _, err := scratch.Search(ctx, req); err != nil {
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
	if req.Folder != "" {
		files = nil
		for _, f := range all {
			if strings.HasPrefix(f, req.Folder+"/") {
				files = append(files, f)
			}
		}
	}
	s := &scan{ctx: ctx, snap: snap, lits: scanLiterals(req), linked: linkedSet(req), start: start, notes: len(files), next: start.Add(progressEvery)}
	weights, err := s.weigh(files)
	if err != nil {
		return nil, err
	}
	picked := pick(files[:len(weights)], weights, scanPick(req.Limit), len(s.lits) > 0 || s.linked != nil)
	docs := make([]Document, len(picked))
	err = s.each(picked, func(i int, f File, content []byte) {
		p, _, _ := note.SplitFileName(f.Path)
		// Git's dates come with the history index; the frontmatter's
		// are here.
		docs[i] = document(note.ParseIn(p, content, w.opts.Location), f)
	})
	if err != nil {
		return nil, err
	}
	if err := scratch.Add(ctx, docs); err != nil {
		return nil, fmt.Errorf("search: scan: %w", err)
	}
	res, err := scratch.Search(ctx, req)
	if err != nil {
		return nil, err
	}
	res.NextCursor = ""
	res.Scan = &ScanInfo{Read: len(weights), Searched: len(picked), Notes: len(files)}
	w.log.Debug("search answered from a scan", "read", len(weights), "searched", len(picked), "notes", len(files), "took", time.Since(start))
	return res, nil
}

// scan is the state of one scanSearch.
type scan struct {
	ctx  context.Context
	snap Snapshot
	lits [][]string
	// linked holds the notes the link graph gives for the search's link
	// terms and backlinks filter, nil when it has none.
	linked map[string]bool
	start  time.Time
	notes  int
	next   time.Time // when to report progress next
}

// weigh reads the files in order, scanChunk at a time, until they are
// all read or scanRead has passed, and returns the weight of each file it
// read: the sum, over the literal groups a note holds, of the group's
// inverse document frequency among the notes read, tripled when its path
// holds it too, and raised a little by how often the text does; and as
// much as a group in the path for a note the link graph gave.
func (s *scan) weigh(files []string) ([]float64, error) {
	type held struct {
		text, path uint64   // bit g: group g held
		tf         []uint16 // occurrences of each group's first literal
		linked     bool     // in scan.linked
	}
	groups := min(len(s.lits), 64)
	found := make([]held, 0, len(files))
	for at := 0; at < len(files); at += scanChunk {
		if at > 0 && time.Since(s.start) >= scanRead {
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
			return nil, err
		}
		found = append(found, got...)
		s.report(len(found))
	}
	df := make([]int, groups)
	for _, h := range found {
		for g := range groups {
			if (h.text|h.path)&(1<<g) != 0 {
				df[g]++
			}
		}
	}
	weights := make([]float64, len(found))
	linkedWeight := 3 * math.Log(1+float64(len(found))/float64(max(len(s.linked), 1)))
	for i, h := range found {
		if h.linked {
			weights[i] += linkedWeight
		}
		for g := range groups {
			bit := uint64(1) << g
			if (h.text|h.path)&bit == 0 {
				continue
			}
			wt := math.Log(1+float64(len(found))/float64(df[g])) * (1 + 0.3*math.Log1p(float64(h.tf[g])))
			if h.path&bit != 0 {
				wt *= 3
			}
			weights[i] += wt
		}
	}
	return weights, nil
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
// files.
func (s *scan) each(files []string, fn func(i int, f File, content []byte)) error {
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
				f, content, err := s.snap.Read(s.ctx, files[i])
				if err != nil {
					errs[k] = fmt.Errorf("search: scan %s: %w", files[i], err)
					return
				}
				fn(i, f, content)
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

// report tells the caller how far the first pass is, every progressEvery.
func (s *scan) report(read int) {
	if now := time.Now(); now.After(s.next) {
		reportProgress(s.ctx, Progress{Done: read, Total: s.notes, Message: "reading the notes while the search index is built"})
		s.next = now.Add(progressEvery)
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
