package wiki

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// The modes of a search (SearchParams.Mode).
const (
	// SearchText ranks by the words of the query language (the default).
	SearchText = "text"
	// SearchSemantic ranks by meaning: the query, in plain language, is
	// embedded and compared with the notes' chunks.
	SearchSemantic = "semantic"
	// SearchHybrid fuses the text and semantic rankings by their scores
	// (see fuse).
	SearchHybrid = "hybrid"
)

// Semantic search settings.
const (
	// SemanticDepth is how many notes a semantic or hybrid search ranks:
	// its results, over every page, are at most these.
	SemanticDepth = 100
	// DefaultSemanticThreshold is the least cosine similarity a semantic
	// name resolution needs unless the request or the model
	// (SemanticState.Threshold) says otherwise. Measured with the GloVe
	// word vectors on the labelled sets of package quality: at 0.55, 57
	// and 58 of their 60 questions find a note, and 17 and 19 of 20
	// unrelated questions ("banana bread recipe") find none.
	DefaultSemanticThreshold = 0.55
)

// MatchedByMeaning says that a semantic resolution matched a note by the
// meaning of its text, in NameMatch.MatchedBy.
const MatchedByMeaning = "meaning"

// Semantic is the semantic index: the notes' chunks (their sections, cut
// to a size) embedded as vectors by a model, for search by meaning. As a
// derived store it follows HEAD; embedding runs in the background, so a
// note may be indexed before it is embedded (SemanticState.Unembedded).
// Implementations are safe for concurrent use.
type Semantic interface {
	DerivedStore
	// Nearest returns the notes whose chunks are nearest to the meaning of
	// text, best first, at most limit, among those keep accepts (all when
	// keep is nil). It returns an error wrapping the provider's when text
	// cannot be embedded.
	Nearest(ctx context.Context, text string, limit int, keep func(notePath string) bool) ([]Neighbour, error)
	// Related returns the notes nearest in meaning to the note at
	// notePath, itself left out. It returns ErrNotFound for a note it does
	// not hold, and an error wrapping ErrUnavailable for a note not
	// embedded yet.
	Related(ctx context.Context, notePath string, limit int, keep func(notePath string) bool) ([]Neighbour, error)
	// State says which model embeds and how far the embedding is.
	State() SemanticState
	// Changed returns a channel closed the next time State may answer
	// otherwise (vectors stored, an embedding failed, the notes changed).
	// A waiter takes it before it reads State, so that it misses no change.
	Changed() <-chan struct{}
	// Close stops the background embedding and releases the index.
	Close(ctx context.Context) error
}

// Neighbour is a note near a meaning: the cosine similarity of its best
// chunk, and that chunk's lines in the file.
type Neighbour struct {
	Path       string
	Score      float64
	Start, End int
}

// SemanticState is how far the semantic index is.
type SemanticState struct {
	// Provider names what embeds (an endpoint's URL); Model the model.
	Provider, Model string
	// Dimensions is the vectors' length, 0 before the first is made.
	Dimensions int
	// Notes and Chunks are the notes and chunks at the index's commit;
	// Unembedded and Pending are those still waiting for a vector.
	Notes, Unembedded int
	Chunks, Pending   int
	// Unread counts the notes the model cannot read (too few of their
	// words are known to it): they are not embedded, and only text
	// search finds them.
	Unread int
	// Error is the provider's last error, "" once it answers again.
	Error string
	// Static names the static model (word vectors, cheap to compute for
	// every chunk at once) that ranks by meaning the notes the model has
	// not embedded yet; "" when there is none, and those notes are ranked
	// by their words only.
	Static string
	// Rate is how many chunks a second the model embedded over the last
	// minute, 0 when it embedded none; ETASeconds is how long the pending
	// chunks should take at that rate, 0 when nothing waits or the rate is
	// not known yet.
	Rate       float64
	ETASeconds int
	// Threshold is the least cosine similarity a semantic name resolution
	// needs with this model's vectors, unless the request says otherwise;
	// 0 for DefaultSemanticThreshold. Each model spreads its cosines
	// differently: a sentence encoder's unrelated texts are nearer than
	// word vectors' are.
	Threshold float64
	// TextShare weighs the text ranking in a hybrid search's fusion with
	// this model's ranking by meaning, in (0, 1), meaning taking the rest;
	// 0 for the default, set for word vectors. It is not used while a
	// static model ranks notes the model has not embedded yet.
	TextShare float64
}

// Semantic returns the wiki's semantic index state, and false when
// semantic search is not configured.
func (w *Wiki) SemanticState() (SemanticState, bool) {
	if w.semantic == nil {
		return SemanticState{}, false
	}
	return w.semantic.State(), true
}

// notConfigured is the error of a semantic request on a wiki without
// embeddings.
func notConfigured(what string) error {
	return Errorf(CodeInvalidParams, "%s needs semantic search, which this wiki has not configured", what).
		WithHint("add a semantic: block to .wikid.yaml naming an embeddings endpoint (see the README)")
}

// unavailable turns a failure to embed into UNAVAILABLE.
func unavailable(err error) error {
	if err == nil || CodeOf(err) != CodeInternal || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return Errorf(CodeUnavailable, "semantic search: %v", err).
		WithHint("check that the embeddings endpoint runs; {status} shows its last error; mode text works meanwhile")
}

// searchByMeaning runs a semantic or hybrid search. The query, in plain
// language, is embedded as written; the filters apply to both rankings;
// in hybrid mode the query is also parsed and run as a text search.
func (w *Wiki) searchByMeaning(ctx context.Context, p SearchParams) (*SearchResult, error) {
	if w.semantic == nil {
		return nil, notConfigured("mode " + p.Mode)
	}
	if strings.TrimSpace(p.Query) == "" {
		return nil, Errorf(CodeInvalidParams, "mode %s needs a query", p.Mode).
			WithHint("describe what you look for in plain words")
	}
	if p.Sort != "" && p.Sort != "relevance" {
		return nil, Errorf(CodeInvalidParams, "mode %s ranks by relevance only, not by %s", p.Mode, p.Sort).
			WithHint("leave sort out, or use mode text to sort by %s", p.Sort)
	}
	if p.Limit < 0 || p.Limit > 100 {
		return nil, Errorf(CodeInvalidParams, "limit %d is not from 1 to 100", p.Limit)
	}
	limit := cmp.Or(p.Limit, 10)
	text := p
	if p.Mode == SearchSemantic {
		text.Query = "" // plain language, not the query language
	}
	req, err := w.searchRequest(text)
	mode, fallback := p.Mode, ""
	if CodeOf(err) == CodeInvalidQuery && p.Mode == SearchHybrid {
		// Plain words need not be in the query language: rank by meaning
		// alone, and say so.
		var qe *Error
		errors.As(err, &qe)
		mode, fallback = SearchSemantic, "the query is not in the query language ("+qe.Message+"), so these are semantic results"
		text.Query = ""
		req, err = w.searchRequest(text)
	}
	if err != nil {
		return nil, err
	}
	scope := append(searchScope(req), p.Mode, strings.TrimSpace(p.Query))
	pos, err := scope.open(p.Cursor)
	if err != nil {
		return nil, err
	}
	offset := 0
	if pos != "" {
		if offset, err = strconv.Atoi(pos); err != nil || offset < 0 || offset > SemanticDepth {
			return nil, Errorf(CodeInvalidParams, "bad cursor: not a cursor of this list").
				WithHint("pass the {next_cursor} of the previous page unchanged, or start again without {cursor}")
		}
	}
	if req.Linked, err = w.linkedNotes(ctx, req); err != nil {
		return nil, err
	}
	keep, err := w.searchFilter(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := w.awaitEmbedded(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	st := w.semantic.State()
	res := &SearchResult{Mode: mode, Fallback: fallback}
	res.Unembedded, res.Embedded, res.Static = coverage(st)
	near, nerr := w.semantic.Nearest(ctx, cmp.Or(p.meaning, p.Query), SemanticDepth, keep)
	if nerr != nil && mode == SearchSemantic {
		return nil, unavailable(nerr)
	}
	if mode == SearchSemantic && (st.Unembedded > 0 && st.Static == "" || len(near) == 0) {
		// Meaning alone would leave notes out, or find none: the words
		// rank too, and the result says why.
		asked := p
		asked.Query = strings.TrimSpace(p.Query)
		if treq, err := w.searchRequest(asked); err == nil {
			if treq.Linked, err = w.linkedNotes(ctx, treq); err != nil {
				return nil, err
			}
			req = treq
			mode = SearchHybrid
			res.Mode = mode
			if st.Unembedded > 0 && st.Static == "" {
				res.Fallback = fmt.Sprintf("%d of %d notes are not embedded yet, so these results are ranked by their words too", st.Unembedded, st.Notes)
			} else {
				res.Fallback = "no note is near in meaning, so these results are ranked by their words"
			}
		}
	}
	var ranked []rankedNote
	if mode == SearchSemantic {
		ranked = fromNeighbours(near)
	} else {
		// The text ranking is made without snippets: only the notes shown
		// get theirs (see textSnippets).
		req.Limit, req.Snippets, req.Cursor = SemanticDepth, 0, ""
		textRes, err := w.textSearch(ctx, req)
		if err != nil {
			return nil, err
		}
		if nerr != nil {
			res.Mode, res.Fallback = SearchText, "the semantic ranking failed, so these are text results: "+nerr.Error()
		}
		ranked = fuse(textRes.Results, near, w.hubness(ctx, near, keep), fusionTextShare(st))
		res.Scan = textRes.Scan
	}
	res.Total = len(ranked)
	end := min(offset+limit, len(ranked))
	if offset < end && end < len(ranked) {
		res.NextCursor = scope.seal(strconv.Itoa(end))
	}
	page := ranked[min(offset, end):end]
	if mode == SearchHybrid && p.Snippets > 0 {
		if err := w.textSnippets(ctx, req, page, p.Snippets); err != nil {
			return nil, err
		}
	}
	res.Results, err = w.rankedHits(ctx, page, p.Snippets)
	if err != nil {
		return nil, err
	}
	w.hitDates(ctx, res.Results)
	return res, nil
}

// embeddingWait is how long a search by meaning waits for the chunks
// still to embed (a note just written, or a wiki just opened with the
// built-in model) before it answers without them, saying how many notes
// it left out.
const embeddingWait = 3 * time.Second

// awaitEmbedded brings the semantic index to HEAD, then waits up to
// embeddingWait for its pending chunks, reporting progress; not at all
// while the embedder fails, nor when a static model ranks the notes that
// wait. It reads the state again each time the index says it changed.
func (w *Wiki) awaitEmbedded(ctx context.Context) error {
	if _, err := w.await(ctx, w.semanticLane); err != nil {
		return err
	}
	if w.semantic.State().Static != "" {
		return nil
	}
	deadline := time.NewTimer(embeddingWait)
	defer deadline.Stop()
	progress := time.NewTicker(progressEvery)
	defer progress.Stop()
	for {
		changed := w.semantic.Changed()
		st := w.semantic.State()
		if st.Pending == 0 || st.Error != "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return nil
		case <-progress.C:
			reportProgress(ctx, Progress{Done: st.Chunks - st.Pending, Total: st.Chunks, Message: "embedding the notes"})
		case <-changed:
		}
	}
}

// coverage returns, of the notes whose text the model reads, how many wait
// for their vectors and how many it has embedded, and whether a static
// model ranks the ones that wait.
func coverage(st SemanticState) (unembedded, embedded int, static bool) {
	return st.Unembedded, max(0, st.Notes-st.Unread-st.Unembedded), st.Unembedded > 0 && st.Static != ""
}

// searchFilter returns the test of a semantic search's filters: nil when
// it has none, else whether a note matches them all, as the search index
// says.
func (w *Wiki) searchFilter(ctx context.Context, req SearchRequest) (func(string) bool, error) {
	filter := req
	filter.Query = nil
	if len(filter.Tags) == 0 && filter.Folder == "" && filter.BacklinksTo == "" && filter.ModifiedSince.IsZero() {
		return nil, nil
	}
	if filter.Tags == nil && filter.BacklinksTo == "" && filter.ModifiedSince.IsZero() {
		folder := filter.Folder + "/"
		return func(p string) bool { return strings.HasPrefix(p, folder) }, nil
	}
	if err := w.refreshIndex(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	dates, err := w.searchDates(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	filter.GitDates = dates
	paths, err := w.index.Matching(ctx, filter)
	if err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(paths))
	for _, p := range paths {
		set[p] = true
	}
	return func(p string) bool { return set[p] }, nil
}

// rankedNote is a note of a semantic or hybrid ranking, with the snippet
// the text search gave it or the lines of its best chunk.
type rankedNote struct {
	path       string
	score      float64
	snippets   []Snippet
	start, end int // the best chunk's lines, 0 without one
	// text is set for a note the text search found.
	text bool
}

func fromNeighbours(near []Neighbour) []rankedNote {
	out := make([]rankedNote, len(near))
	for i, n := range near {
		out[i] = rankedNote{path: n.Path, score: n.Score, start: n.Start, end: n.End}
	}
	return out
}

// rankedHits reads the notes of a page of a ranking at HEAD: their
// titles, tags and snippets. A note HEAD no longer has is left out.
func (w *Wiki) rankedHits(ctx context.Context, page []rankedNote, snippets int) ([]SearchHit, error) {
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	hits := make([]SearchHit, 0, len(page))
	for _, r := range page {
		_, n, err := w.readNote(ctx, snap, r.path, "")
		if err != nil {
			continue
		}
		h := SearchHit{Path: n.Path, Title: n.Title, Tags: tagNames(n), Score: r.score}
		switch {
		case snippets == 0:
		case len(r.snippets) > 0:
			h.Snippets = r.snippets[:min(len(r.snippets), snippets)]
		case r.start > 0:
			h.Snippets = []Snippet{chunkSnippet(n, r.start, r.end)}
		}
		hits = append(hits, h)
	}
	return hits, nil
}

func tagNames(n *note.Note) []string {
	out := make([]string, len(n.Tags))
	for i, t := range n.Tags {
		out[i] = t.Name
	}
	return out
}

// snippetChars bounds a chunk's snippet.
const snippetChars = 240

// chunkSnippet returns the start of a note's lines start to end, on one
// line, as a snippet: its text, leaving out headings when it has more.
func chunkSnippet(n *note.Note, start, end int) Snippet {
	lines := strings.Split(string(n.Raw), "\n")
	isText := func(i int) bool {
		l := strings.TrimSpace(lines[i-1])
		return l != "" && !isHeading(l)
	}
	headings := true
	for i := start; i <= end && i <= len(lines); i++ {
		if isText(i) {
			headings = false
			break
		}
	}
	var b strings.Builder
	first := 0
	for i := start; i <= end && i <= len(lines) && b.Len() < snippetChars; i++ {
		l := strings.TrimSpace(lines[i-1])
		if l == "" || !headings && !isText(i) {
			continue
		}
		if first == 0 {
			first = i
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l)
	}
	text := b.String()
	if len(text) > snippetChars {
		cut := snippetChars
		for cut > 0 && text[cut]&0xC0 == 0x80 {
			cut--
		}
		text = text[:cut] + "…"
	}
	return Snippet{Line: max(first, start), Text: text}
}

// isHeading reports whether a trimmed line is an ATX heading.
func isHeading(l string) bool {
	t := strings.TrimLeft(l, "#")
	return len(t) < len(l) && len(l)-len(t) <= 6 && (t == "" || t[0] == ' ' || t[0] == '\t')
}

// RelatedRequest asks for the notes nearest in meaning to a note.
type RelatedRequest struct {
	Path string
	// Folder restricts the results; Limit is 1 to 50, default 10.
	Folder string
	Limit  int
}

// Related returns the notes nearest in meaning to a note at HEAD, best
// first, with the lines of their nearest chunk as a snippet. It returns
// INVALID_PARAMS without semantic search or for a bad limit, INVALID_PATH
// for a bad path or folder, NOT_FOUND for a missing note, and UNAVAILABLE
// for a note not embedded yet.
func (w *Wiki) Related(ctx context.Context, req RelatedRequest) (*SearchResult, error) {
	if w.semantic == nil {
		return nil, notConfigured("related notes")
	}
	if req.Limit < 0 || req.Limit > 50 {
		return nil, Errorf(CodeInvalidParams, "limit %d is not from 1 to 50", req.Limit)
	}
	limit := cmp.Or(req.Limit, 10)
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	cleaned, _, err := note.CleanPath(req.Path)
	if err != nil {
		return nil, err
	}
	_, n, err := w.readNote(ctx, snap, cleaned, "")
	if err != nil {
		return nil, err
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	keep, err := w.searchFilter(ctx, SearchRequest{Folder: folder})
	if err != nil {
		return nil, err
	}
	if err := w.awaitEmbedded(ctx); err != nil {
		return nil, fmt.Errorf("related notes: %w", err)
	}
	near, err := w.semantic.Related(ctx, n.Path, limit, keep)
	if err != nil {
		if CodeOf(err) == CodeNotFound || CodeOf(err) == CodeUnavailable {
			return nil, err
		}
		return nil, unavailable(err)
	}
	res := &SearchResult{Mode: SearchSemantic}
	res.Unembedded, res.Embedded, _ = coverage(w.semantic.State())
	if res.Results, err = w.rankedHits(ctx, fromNeighbours(near), 1); err != nil {
		return nil, err
	}
	res.Total = len(res.Results)
	w.hitDates(ctx, res.Results)
	return res, nil
}

// fusionTextShare is the text ranking's weight in a hybrid search's
// fusion with the ranking by meaning of an index in state st: the
// model's, unless a static model ranks some of the notes.
func fusionTextShare(st SemanticState) float64 {
	if st.TextShare <= 0 || st.TextShare >= 1 || st.Unembedded > 0 && st.Static != "" {
		return defaultTextShare
	}
	return st.TextShare
}

// semanticThreshold is the least cosine similarity a semantic name
// resolution needs by default: the model's, else
// DefaultSemanticThreshold.
func (w *Wiki) semanticThreshold() float64 {
	if w.semantic != nil {
		if t := w.semantic.State().Threshold; t > 0 && t <= 1 {
			return t
		}
	}
	return DefaultSemanticThreshold
}

// resolveByMeaning resolves names by the meaning of the notes' text: the
// notes whose nearest chunk has a cosine similarity of at least threshold.
func (w *Wiki) resolveByMeaning(ctx context.Context, req ResolveRequest) (*ResolveResult, error) {
	if w.semantic == nil {
		return nil, Errorf(CodeInvalidParams, "semantic resolution is not configured: this wiki has no embeddings").
			WithHint("use strategy exact, or fuzzy for misspelled names; or add a semantic: block to .wikid.yaml")
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	var tagged func(string) bool
	if folder != "" || req.Tag != "" {
		var tags []string
		if tag := note.NewTag(req.Tag); tag.Norm != "" {
			tags = []string{tag.Norm}
		}
		if tagged, err = w.searchFilter(ctx, SearchRequest{Folder: folder, Tags: tags}); err != nil {
			return nil, err
		}
	}
	if err := w.awaitEmbedded(ctx); err != nil {
		return nil, fmt.Errorf("resolve: %w", err)
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	res := &ResolveResult{Results: make([]NameResolution, len(req.Names))}
	for i, name := range req.Names {
		near, err := w.semantic.Nearest(ctx, name, MaxResolveMatches, tagged)
		if err != nil {
			return nil, unavailable(err)
		}
		r := NameResolution{Name: name, Matches: []NameMatch{}}
		for _, nb := range near {
			if nb.Score < req.Threshold {
				break
			}
			title := nb.Path
			if _, n, err := w.readNote(ctx, snap, nb.Path, ""); err == nil {
				title = n.Title
			}
			r.Matches = append(r.Matches, NameMatch{Path: nb.Path, Title: title, Score: nb.Score, MatchedBy: MatchedByMeaning})
		}
		r.Exists = len(r.Matches) > 0
		res.Results[i] = r
	}
	return res, nil
}

// textSnippets gives the notes of a page that the text search req found
// their snippets, at most n each: the same search again, over those notes
// only, so that the notes not shown cost none.
func (w *Wiki) textSnippets(ctx context.Context, req SearchRequest, page []rankedNote, n int) error {
	var paths []string
	for _, r := range page {
		if r.text {
			paths = append(paths, r.path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	req.Paths, req.Limit, req.Snippets, req.Cursor = paths, len(paths), n, ""
	res, err := w.textSearch(ctx, req)
	if err != nil {
		return err
	}
	byPath := make(map[string][]Snippet, len(res.Results))
	for _, h := range res.Results {
		byPath[h.Path] = h.Snippets
	}
	for i := range page {
		page[i].snippets = byPath[page[i].path]
	}
	return nil
}
