package index

import (
	"context"
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/wikid/wikid/internal/wiki"
)

// A note's dates are the frontmatter's when it has them, else git's. The
// index stores only the frontmatter's, so that it is built without waiting
// for the history walk that gives git's; a note without one is marked in
// fieldGitDated, and a search by date takes git's from the request's
// GitDates (see wiki.GitDates).
//
// A search looks git's dates up by document number, in a table of the
// index snapshot it searches (dateTable): looking them up by path would
// read every hit's path from its segment and hash it, which made a search
// of every note by date three times slower.

// dateKind is one of a note's two dates.
type dateKind struct {
	field string // the frontmatter's date, for ranges
	key   string // the frontmatter's date as a timeKey, for sorts
	git   string // the term of fieldGitDated for a note without it
	of    func(wiki.GitDate) time.Time
}

var (
	createdDate  = &dateKind{fieldCreated, fieldCreatedKey, "created", func(g wiki.GitDate) time.Time { return g.Created }}
	modifiedDate = &dateKind{fieldModified, fieldModKey, "modified", func(g wiki.GitDate) time.Time { return g.Modified }}
)

// addDates adds a note's frontmatter dates to its bleve document, and marks
// each one it lacks in fieldGitDated.
func addDates(doc map[string]any, d *wiki.Document) {
	var git []string
	for _, k := range []struct {
		kind *dateKind
		t    time.Time
	}{{createdDate, d.Created}, {modifiedDate, d.Modified}} {
		if k.t.IsZero() {
			git = append(git, k.kind.git)
			continue
		}
		doc[k.kind.field] = k.t
		doc[k.kind.key] = timeKey(k.t)
	}
	if !d.Modified.IsZero() {
		doc[fieldModStamp] = d.Modified.Format(time.RFC3339Nano)
	}
	if git != nil {
		doc[fieldGitDated] = git
	}
}

// dateTerm matches the notes whose date of kind k is in [from, to), a zero
// bound leaving that side open: the frontmatter's date, else git's
// (unknownTime for a note git's dates do not hold). Bounds beyond what bleve
// can store (before 1677 or after 2262) are no error: a from after every
// storable date matches nothing, a to after it leaves the range open, and
// so on.
func (c *compiler) dateTerm(k *dateKind, from, to time.Time) query.Query {
	switch {
	case !from.IsZero() && from.After(query.MaxRFC3339CompatibleTime),
		!to.IsZero() && !to.After(query.MinRFC3339CompatibleTime):
		return query.NewMatchNoneQuery()
	}
	if from.Before(query.MinRFC3339CompatibleTime) {
		from = time.Time{}
	}
	if to.After(query.MaxRFC3339CompatibleTime) {
		to = time.Time{}
	}
	if from.IsZero() && to.IsZero() {
		return query.NewMatchAllQuery()
	}
	inclusive, exclusive := true, false
	fm := query.NewDateRangeInclusiveQuery(from, to, &inclusive, &exclusive)
	fm.SetField(k.field)
	git := &gitDateQuery{kind: k, dates: c.gitDates(), from: math.MinInt64, to: math.MaxInt64}
	if !from.IsZero() {
		git.from = from.UnixNano()
	}
	if !to.IsZero() {
		git.to = to.UnixNano()
	}
	return query.NewDisjunctionQuery([]query.Query{fm, git})
}

// withDates returns the query of a search, wrapped so that git's dates
// are loaded for its snapshot when a date term or sort needs them.
func (c *compiler) withDates(q query.Query) query.Query {
	if c.searchDates == nil {
		return q
	}
	return &datesQuery{Query: q, dates: c.searchDates}
}

// gitDates returns the git dates of c's search, made once.
func (c *compiler) gitDates() *searchDates {
	if c.searchDates == nil {
		c.searchDates = &searchDates{dates: c.dates, tables: c.tables}
	}
	return c.searchDates
}

// searchDates are git's dates for one search: the request's, and once the
// search has its snapshot (see datesQuery), the table of that snapshot.
type searchDates struct {
	dates  wiki.GitDates
	tables *dateTables
	table  *dateTable
}

// load sets the table of the snapshot r; without git's dates there is
// none, and every note's git date is unknown.
func (s *searchDates) load(r index.IndexReader) error {
	if s.dates == nil || s.table != nil && s.table.reader == r {
		return nil
	}
	t, err := s.tables.get(r, s.dates)
	s.table = t
	return err
}

// datesQuery is a search's query, wrapped so that its git dates are
// loaded for the snapshot it searches before any searcher or sort needs
// them.
type datesQuery struct {
	query.Query
	dates *searchDates
}

// Searcher implements query.Query.
func (q *datesQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	if err := q.dates.load(i); err != nil {
		return nil, err
	}
	return q.Query.Searcher(ctx, i, m, opts)
}

// gitDateQuery matches the notes without a frontmatter date of its kind
// whose git date, in nanoseconds since 1970, is in [from, to).
type gitDateQuery struct {
	kind     *dateKind
	dates    *searchDates
	from, to int64
}

// Searcher implements query.Query: the notes marked in fieldGitDated,
// filtered by their git dates.
func (q *gitDateQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, opts search.SearcherOptions) (search.Searcher, error) {
	if err := q.dates.load(i); err != nil {
		return nil, err
	}
	s, err := searcher.NewTermSearcher(ctx, i, q.kind.git, fieldGitDated, 1, opts)
	if err != nil {
		return nil, err
	}
	t := q.dates.table.of(q.kind)
	return searcher.NewFilteringSearcher(ctx, s, func(_ *search.SearchContext, d *search.DocumentMatch) bool {
		n := d.IndexInternalID.Value()
		v := unknownNanos
		if n < uint64(len(t)) {
			v = t[n]
		}
		return q.from <= v && v < q.to
	}), nil
}

// dateSort orders notes by a date as timeKeys: the frontmatter's, read
// from its key field's doc values, else git's from the search's table.
type dateSort struct {
	kind  *dateKind
	dates *searchDates
	desc  bool
	fm    string // the key visited for the hit at hand, "" for none
}

var _ search.SearchSort = (*dateSort)(nil)

// UpdateVisitor implements search.SearchSort: it is called with the doc
// values of the hit at hand before Value.
func (s *dateSort) UpdateVisitor(field string, term []byte) {
	if field == s.kind.key {
		s.fm = string(term)
	}
}

// Value implements search.SearchSort.
func (s *dateSort) Value(d *search.DocumentMatch) string {
	v := s.fm
	s.fm = ""
	if v != "" {
		return v
	}
	nanos := unknownNanos
	if t := s.dates.table.of(s.kind); t != nil {
		if n := d.IndexInternalID.Value(); n < uint64(len(t)) {
			nanos = t[n]
		}
	}
	return nanosKey(nanos)
}

// DecodeValue implements search.SearchSort: a key is its own value.
func (s *dateSort) DecodeValue(v string) string { return v }

// Descending implements search.SearchSort.
func (s *dateSort) Descending() bool { return s.desc }

// RequiresDocID implements search.SearchSort.
func (s *dateSort) RequiresDocID() bool { return false }

// RequiresScoring implements search.SearchSort.
func (s *dateSort) RequiresScoring() bool { return false }

// RequiresFields implements search.SearchSort.
func (s *dateSort) RequiresFields() []string { return []string{s.kind.key} }

// Reverse implements search.SearchSort.
func (s *dateSort) Reverse() { s.desc = !s.desc }

// Copy implements search.SearchSort.
func (s *dateSort) Copy() search.SearchSort {
	c := *s
	c.fm = ""
	return &c
}

// unknownNanos is unknownTime in nanoseconds: the date of a note that
// git's dates do not hold.
var unknownNanos = unknownTime.UnixNano()

// dateTable is git's dates of the notes of one index snapshot, in
// nanoseconds since 1970, by document number; unknownNanos where unknown.
type dateTable struct {
	reader            index.IndexReader
	dates             uintptr // the identity of the GitDates it was made of
	created, modified []int64
}

// of returns the table of a date kind; nil for a nil table.
func (t *dateTable) of(k *dateKind) []int64 {
	switch {
	case t == nil:
		return nil
	case k == createdDate:
		return t.created
	default:
		return t.modified
	}
}

// dateTables keeps the table of the last snapshot searched by date: every
// search of a snapshot shares it, until the index changes (an update, or a
// merge of its segments) or git's dates do (a new commit).
type dateTables struct {
	mu   sync.Mutex
	last *dateTable
}

// get returns the table of snapshot r and git's dates, making it unless
// it is the last one made: by reading every note's path once.
func (ts *dateTables) get(r index.IndexReader, dates wiki.GitDates) (*dateTable, error) {
	if ts == nil {
		ts = &dateTables{}
	}
	id := reflect.ValueOf(dates).Pointer()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t := ts.last; t != nil && t.reader == r && t.dates == id {
		return t, nil
	}
	ids, err := r.DocIDReaderAll()
	if err != nil {
		return nil, err
	}
	defer ids.Close()
	t := &dateTable{reader: r, dates: id}
	for {
		in, err := ids.Next()
		if err != nil {
			return nil, err
		}
		if in == nil {
			break
		}
		p, err := r.ExternalID(in)
		if err != nil {
			return nil, err
		}
		n := int(in.Value())
		for len(t.created) <= n {
			t.created = append(t.created, unknownNanos)
			t.modified = append(t.modified, unknownNanos)
		}
		if g, ok := dates[p]; ok {
			t.created[n] = indexTime(g.Created).UnixNano()
			t.modified[n] = indexTime(g.Modified).UnixNano()
		}
	}
	ts.last = t
	return t, nil
}
