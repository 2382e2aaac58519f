package wiki

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/note"
)

// SearchParams is a search as a caller gives it.
type SearchParams struct {
	// Query is in the query language of the grammar package.
	Query         string
	Tags          []string
	Folder        string
	BacklinksTo   string
	ModifiedSince time.Time
	// Sort is relevance (default), modified, created or title.
	Sort   string
	Limit  int
	Cursor string
	// Snippets is how many snippets a hit gets at most: 0 for none.
	Snippets int
	// Mode is text (the default), semantic or hybrid.
	Mode string
	// meaning is what a semantic or hybrid search embeds when it is not
	// Query: gather_context's question as asked, whose words alone are
	// the query.
	meaning string
}

// Search runs a ranked full-text search. It first applies commits others
// made since the last search, so that it answers from the whole of HEAD;
// while the index is being built, it answers from a scan of HEAD instead
// (see scans), or waits for the build when the scan cannot answer.
// links:, linkedfrom:
// and BacklinksTo are answered from the link graph when the wiki has one,
// so a link by title or alias counts. It returns
// INVALID_QUERY with the column for a query that does not parse,
// INVALID_PARAMS for a bad sort, limit or cursor, and INVALID_PATH for a
// bad folder or backlinks_to.
func (w *Wiki) Search(ctx context.Context, p SearchParams) (*SearchResult, error) {
	switch p.Mode {
	case "", SearchText:
	case SearchSemantic, SearchHybrid:
		return w.searchByMeaning(ctx, p)
	default:
		return nil, Errorf(CodeInvalidParams, "unknown mode %q", p.Mode).WithHint("use text, semantic or hybrid")
	}
	req, err := w.searchRequest(p)
	if err != nil {
		return nil, err
	}
	scope := searchScope(req)
	if req.Cursor, err = scope.open(req.Cursor); err != nil {
		return nil, err
	}
	if req.Linked, err = w.linkedNotes(ctx, req); err != nil {
		return nil, err
	}
	res, err := w.textSearch(ctx, req)
	if err != nil {
		return nil, err
	}
	if res, err = w.searchProposal(ctx, req, res); err != nil {
		return nil, err
	}
	w.hitDates(ctx, res.Results)
	res.NextCursor = scope.seal(res.NextCursor)
	res.Mode = SearchText
	return res, nil
}

// searchScope binds a search's cursors to its query, filters and sort,
// each in a normal form: the parsed query, the tags in order, relevance
// for no sort.
func searchScope(req SearchRequest) cursorScope {
	query := ""
	if req.Query != nil && req.Query.Root != nil {
		query = req.Query.String()
	}
	tags := slices.Sorted(slices.Values(req.Tags))
	tags = slices.Compact(tags)
	sort := req.Sort
	if sort == "" {
		sort = "relevance"
	}
	return cursorScope{"search", query, tags, req.Folder, req.BacklinksTo, timeKey(req.ModifiedSince), sort}
}

// hitDates sets the dates of the hits' notes at HEAD, as a read shows them:
// the frontmatter's, else git's. A hit whose note HEAD no longer has (the
// index is behind) keeps the index's modified date, without a source.
func (w *Wiki) hitDates(ctx context.Context, hits []SearchHit) {
	if len(hits) == 0 {
		return
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return
	}
	notes := make([]*note.Note, len(hits))
	files := make([]string, 0, len(hits))
	for i := range hits {
		f, n, err := w.readNote(ctx, snap, hits[i].Path, "")
		if err != nil {
			continue
		}
		notes[i] = n
		files = append(files, f.Path)
	}
	times, _ := w.gitTimes(ctx, snap.Commit(), true, files)
	j := 0
	for i, n := range notes {
		if n == nil {
			continue
		}
		h := &hits[i]
		d := noteDates(n, times[files[j]])
		j++
		h.Created, h.CreatedSource = d.Created, d.CreatedSource
		switch {
		case d.Modified != nil:
			h.Modified, h.ModifiedSource = *d.Modified, d.ModifiedSource
		case !h.Modified.IsZero():
			h.ModifiedSource = DateFromGit // the index's, from the history
		}
	}
}

func (w *Wiki) searchRequest(p SearchParams) (SearchRequest, error) {
	req := SearchRequest{Sort: p.Sort, Limit: p.Limit, Cursor: p.Cursor, Snippets: p.Snippets, ModifiedSince: p.ModifiedSince}
	if strings.TrimSpace(p.Query) != "" {
		q, err := grammar.Parse(p.Query, w.opts.Location)
		if err != nil {
			return req, queryError(err)
		}
		req.Query = q
	}
	for _, t := range p.Tags {
		if tag := note.NewTag(t); tag.Norm != "" {
			req.Tags = append(req.Tags, tag.Norm)
		}
	}
	if p.Folder != "" {
		f, err := note.CleanFolder(p.Folder)
		if err != nil {
			return req, err
		}
		req.Folder = f
	}
	if p.BacklinksTo != "" {
		t, _, err := note.CleanPath(p.BacklinksTo)
		if err != nil {
			return req, err
		}
		req.BacklinksTo = t
	}
	return req, nil
}

// linkedNotes asks the link graph the link terms of a search's links: and
// linkedfrom: terms and of its BacklinksTo, and returns the answers for
// SearchRequest.Linked; nil when the search has none of them.
func (w *Wiki) linkedNotes(ctx context.Context, req SearchRequest) (map[LinkTerm][]string, error) {
	var terms []LinkTerm
	for _, t := range req.Query.Terms() {
		if lt, ok := LinkTermOf(t); ok {
			terms = append(terms, lt)
		}
	}
	if req.BacklinksTo != "" {
		terms = append(terms, BacklinksTerm(req.BacklinksTo))
	}
	if len(terms) == 0 {
		return nil, nil
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	linked := make(map[LinkTerm][]string, len(terms))
	for _, lt := range terms {
		if _, ok := linked[lt]; !ok {
			linked[lt] = g.LinkedNotes(lt.Name, lt.Dir, lt.Prefix)
		}
	}
	return linked, nil
}

// queryError turns a grammar error into INVALID_QUERY with the column.
func queryError(err error) error {
	var qe *grammar.Error
	if !errors.As(err, &qe) {
		return Errorf(CodeInvalidQuery, "%v", err)
	}
	e := Errorf(CodeInvalidQuery, "%s", qe.Msg).
		WithHint("fix the query at column %d; {search} describes the query language", qe.Column)
	e.Details = map[string]any{"column": qe.Column}
	return e
}

// Tags counts notes per tag, nested tags counted for every ancestor.
func (w *Wiki) Tags(ctx context.Context, req TagsRequest) ([]TagCount, error) {
	if req.Folder != "" {
		f, err := note.CleanFolder(req.Folder)
		if err != nil {
			return nil, err
		}
		req.Folder = f
	}
	req.Prefix = strings.TrimLeft(req.Prefix, "#")
	if err := w.refreshIndex(ctx); err != nil {
		return nil, fmt.Errorf("tags: %w", err)
	}
	return w.index.Tags(ctx, req)
}
