package index

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_Search_query checks the exact result set of every row of the
// query language table, and of combinations of them.
func TestIndex_Search_query(t *testing.T) {
	x := openFixture(t)
	var (
		plan    = "projects/alpha/plan"
		retro   = "projects/alpha/retro"
		beta    = "projects/beta/notes"
		ann     = "people/ann"
		bob     = "people/bob"
		journal = "journal/2024-01-15"
		inbox   = "inbox"
		old     = "archive/old-search"
		mcp     = "research/mcp"
		all     = []string{plan, retro, beta, ann, bob, journal, inbox, old, mcp}
	)
	tests := []struct {
		query string
		want  []string
	}{
		// word: title, aliases or body, in any of its forms.
		{"search", []string{old, journal, plan, retro, bob}},
		{"SEARCH", []string{old, journal, plan, retro, bob}},
		{"journal", []string{beta}}, // an alias
		{"searching", []string{old, journal, plan, retro, bob}},
		{"protocols", []string{plan, beta, mcp}},
		// "word": as written.
		{`"search"`, []string{old, journal, plan, retro}},
		{`"searching"`, []string{bob}},
		{`"protocols"`, []string{beta}},
		{"wiki-search", []string{plan}}, // two words, as a phrase
		{"search-wiki", nil},
		{"wiki", []string{plan}},
		// word*: prefix.
		{"search*", []string{old, journal, plan, retro, bob}},
		{"protocol*", []string{plan, beta, mcp}},
		// "a phrase": adjacent words in order.
		{`"model context protocol"`, []string{plan, mcp}},
		{`"protocol model"`, []string{beta}},
		{`"context model"`, nil},
		// title:
		{"title:alpha", []string{plan, retro}},
		{`title:"alpha plan"`, []string{plan}},
		{"title:search", []string{old}},
		{"title:meet*", []string{journal}},
		// tag:, nested tags match their ancestors, case-insensitive.
		{"tag:project", []string{plan, retro, beta, old}},
		{"tag:project/alpha", []string{plan, retro, old}},
		{"tag:Project/Beta", []string{beta}},
		{"tag:planning", []string{plan}},
		{"tag:PLANNING", []string{plan}},
		{"tag:alpha", nil}, // a child is not a tag of its own
		{"tag:proj*", []string{plan, retro, beta, old}},
		// folder:
		{"folder:projects", []string{plan, retro, beta}},
		{"folder:projects/alpha", []string{plan, retro}},
		{"folder:projects/alpha/", []string{plan, retro}},
		{"folder:Projects/Alpha", []string{plan, retro}},
		{"folder:proj", nil},
		{"folder:people", []string{ann, bob}},
		// path: globs.
		{"path:projects/a*", []string{plan, retro}},
		{"path:people/?ob", []string{bob}},
		{"path:inbox", []string{inbox}},
		{"path:*/notes", []string{beta}},
		{"path:*", all},
		// Properties: any other field.
		{"type:person", []string{ann, bob}},
		{"status:active", []string{plan, beta}},
		{"role:engineer", []string{ann}},
		{"status:d*", []string{retro, mcp}},
		{"color:blue", nil},
		// Dates: half-open intervals.
		{"modified:>=2024-01-01", []string{plan, retro, beta, journal, inbox, mcp}},
		{"created:<2024-01", []string{beta, ann, bob, old}},
		{"modified:2024-01..2024-03", []string{plan, retro, journal, mcp}},
		{"modified:2024-03", []string{plan, mcp}},
		{"created:>2024-02", []string{mcp, inbox}},
		{"modified:<=2022", []string{bob, old}},
		// links: and linkedfrom:
		{"links:projects/alpha/plan", []string{retro, beta, journal, mcp}},
		{"links:people/ann", []string{plan, journal}},
		{"links:people/ann.md", []string{plan, journal}},
		{"linkedfrom:projects/alpha/plan", []string{beta, ann}},
		{"linkedfrom:research/mcp", []string{plan, inbox}},
		{"linkedfrom:Research/MCP.md", []string{plan, inbox}},
		{"linkedfrom:projects/beta/notes", []string{plan}},
		{"linkedfrom:nowhere", nil},
		{"linkedfrom:people/ann", nil}, // a note without links
		// AND, implicit AND.
		{"search AND tag:meeting", []string{retro, journal}},
		{"search tag:meeting", []string{retro, journal}},
		{"alpha tag:project folder:projects", []string{plan, retro}},
		// OR binds looser than AND.
		{"tag:person OR tag:research", []string{ann, bob, mcp}},
		{"tag:person OR tag:meeting search", []string{ann, bob, retro, journal}},
		{"(tag:person OR tag:meeting) search", []string{bob, retro, journal}},
		// Negation.
		{"search -tag:meeting", []string{old, plan, bob}},
		{"search NOT tag:archived", []string{journal, plan, retro}},
		{"(tag:person OR tag:meeting) -tag:archived", []string{ann, retro, journal}},
		{"search -(tag:meeting OR folder:archive)", []string{plan, bob}},
		{"mcp -inbox", []string{journal, mcp}},
		// All-negative queries: everything except.
		{"-tag:project", []string{ann, bob, journal, inbox, mcp}},
		{"NOT tag:project", []string{ann, bob, journal, inbox, mcp}},
		{"-tag:project -tag:person", []string{journal, inbox, mcp}},
		{"NOT (tag:project OR tag:person)", []string{journal, inbox, mcp}},
		{"-path:*", nil},
		{"tag:person OR -tag:meeting", []string{plan, beta, ann, bob, inbox, old, mcp}},
		{"-(-tag:person)", []string{ann, bob}},
		// Nothing to match must stay nothing, whatever surrounds it.
		{"nosuchword*", nil},
		{"nosuchword* -tag:person", nil},
		{"linkedfrom:nowhere -tag:person", nil},
		{"linkedfrom:nowhere OR tag:person", []string{ann, bob}},
		// The empty query matches every note.
		{"", all},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100})
			want := slices.Clone(tt.want)
			if want == nil {
				want = []string{}
			}
			slices.Sort(want)
			if got := sortedPaths(res); !slices.Equal(got, want) {
				t.Errorf("paths = %q, want %q", got, want)
			}
			if res.Total != len(want) {
				t.Errorf("total = %d, want %d", res.Total, len(want))
			}
			// Matching finds the same notes, its paths read from doc
			// values.
			paths, err := x.Matching(context.Background(), wiki.SearchRequest{Query: parse(t, tt.query)})
			slices.Sort(paths)
			if err != nil || len(paths) != len(want) || len(want) > 0 && !slices.Equal(paths, want) {
				t.Errorf("Matching = %q, %v; want %q", paths, err, want)
			}
		})
	}
}

// TestIndex_Search_nilQuery checks that a request without a query matches
// every note.
func TestIndex_Search_nilQuery(t *testing.T) {
	x := openFixture(t)
	res := find(t, x, wiki.SearchRequest{Limit: 100})
	if res.Total != len(fixture(t)) || len(res.Results) != len(fixture(t)) {
		t.Errorf("total %d, %d hits; want %d", res.Total, len(res.Results), len(fixture(t)))
	}
}

// TestIndex_Search_ranking checks that the title weighs more than the body
// and that the hit carries the note's metadata.
func TestIndex_Search_ranking(t *testing.T) {
	x := openFixture(t)
	res := find(t, x, wiki.SearchRequest{Query: parse(t, "search")})
	if len(res.Results) == 0 || res.Results[0].Path != "archive/old-search" {
		t.Fatalf("hits = %q, want archive/old-search (title match) first", paths(res))
	}
	for i := 1; i < len(res.Results); i++ {
		if res.Results[i].Score > res.Results[i-1].Score {
			t.Errorf("hit %d scores %v, more than hit %d (%v)", i, res.Results[i].Score, i-1, res.Results[i-1].Score)
		}
	}
	h := res.Results[0]
	if h.Title != "Old Search Ideas" || !slices.Equal(h.Tags, []string{"archived", "project/alpha"}) ||
		!h.Modified.Equal(day(t, "2021-06-01")) || h.Score <= 0 {
		t.Errorf("hit = %+v", h)
	}
}

// TestIndex_Search_filters checks the structured filters, alone and with
// a query: all of them combine with AND.
func TestIndex_Search_filters(t *testing.T) {
	x := openFixture(t)
	tests := []struct {
		name string
		req  wiki.SearchRequest
		want []string
	}{
		{"tags all of", wiki.SearchRequest{Tags: []string{"project", "Meeting"}}, []string{"projects/alpha/retro"}},
		{"nested tag", wiki.SearchRequest{Tags: []string{"#project/alpha"}}, []string{"archive/old-search", "projects/alpha/plan", "projects/alpha/retro"}},
		{"folder", wiki.SearchRequest{Folder: "projects/"}, []string{"projects/alpha/plan", "projects/alpha/retro", "projects/beta/notes"}},
		{"paths", wiki.SearchRequest{Paths: []string{"inbox", "projects/beta/notes", "no/such"}}, []string{"inbox", "projects/beta/notes"}},
		{"no paths", wiki.SearchRequest{Paths: []string{}}, []string{}},
		{"paths and folder", wiki.SearchRequest{Paths: []string{"inbox", "projects/beta/notes"}, Folder: "projects"}, []string{"projects/beta/notes"}},
		{"backlinks to", wiki.SearchRequest{BacklinksTo: "projects/alpha/plan"}, []string{"journal/2024-01-15", "projects/alpha/retro", "projects/beta/notes", "research/mcp"}},
		{"modified since", wiki.SearchRequest{ModifiedSince: day(t, "2024-03-10")}, []string{"inbox", "projects/beta/notes", "research/mcp"}},
		{"modified since a date past what bleve stores", wiki.SearchRequest{ModifiedSince: day(t, "2999-01-01")}, []string{}},
		{"a date range past what bleve stores", wiki.SearchRequest{Query: parse(t, "modified:>=2999-01-01"), Folder: "projects"}, []string{}},
		{"a date range open past what bleve stores", wiki.SearchRequest{Query: parse(t, "modified:<2999-01-01 modified:>=1000-01-01"), Folder: "projects"}, []string{"projects/alpha/plan", "projects/alpha/retro", "projects/beta/notes"}},
		{"query and filters", wiki.SearchRequest{Query: parse(t, "protocol*"), Folder: "projects", ModifiedSince: day(t, "2024-03-06")}, []string{"projects/beta/notes"}},
		{"negative query and filter", wiki.SearchRequest{Query: parse(t, "-tag:meeting"), Tags: []string{"project"}}, []string{"archive/old-search", "projects/alpha/plan", "projects/beta/notes"}},
		{"query matching nothing", wiki.SearchRequest{Query: parse(t, "nosuchword"), Folder: "projects"}, []string{}},
		{"folder without notes", wiki.SearchRequest{Folder: "nowhere"}, []string{}},
		{"all filters", wiki.SearchRequest{Query: parse(t, "search"), Tags: []string{"project"}, Folder: "projects", BacklinksTo: "projects/alpha/plan", ModifiedSince: day(t, "2024-01-01")}, []string{"projects/alpha/retro"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Limit = 100
			if got := sortedPaths(find(t, x, tt.req)); !slices.Equal(got, tt.want) {
				t.Errorf("paths = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestIndex_Search_linked checks that, when the request carries the link
// graph's answers, link terms and the backlinks filter match the notes
// given for their link terms rather than the links the index stores.
func TestIndex_Search_linked(t *testing.T) {
	x := openFixture(t)
	linked := map[wiki.LinkTerm][]string{
		{Name: "Alpha Plan", Dir: wiki.DirIn}:               {"people/ann", "inbox"},
		{Name: "research/", Dir: wiki.DirOut, Prefix: true}: {"people/bob"},
		wiki.BacklinksTerm("projects/alpha/plan"):           {"research/mcp"},
	}
	tests := []struct {
		name string
		req  wiki.SearchRequest
		want []string
	}{
		{"links:", wiki.SearchRequest{Query: parse(t, `links:"Alpha Plan"`)}, []string{"inbox", "people/ann"}},
		{"linkedfrom: prefix", wiki.SearchRequest{Query: parse(t, "linkedfrom:research/*")}, []string{"people/bob"}},
		{"negated", wiki.SearchRequest{Query: parse(t, `tag:person -links:"Alpha Plan"`)}, []string{"people/bob"}},
		// the index alone finds four notes linking to the plan
		{"no answer", wiki.SearchRequest{Query: parse(t, "links:projects/alpha/plan")}, []string{}},
		{"backlinks to", wiki.SearchRequest{BacklinksTo: "projects/alpha/plan"}, []string{"research/mcp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Limit = 100
			tt.req.Linked = linked
			if got := sortedPaths(find(t, x, tt.req)); !slices.Equal(got, tt.want) {
				t.Errorf("paths = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("empty target", func(t *testing.T) {
		_, err := x.Search(context.Background(), wiki.SearchRequest{Query: parse(t, "a linkedfrom:/"), Linked: linked})
		var e *wiki.Error
		if !errors.As(err, &e) || e.Code != wiki.CodeInvalidQuery || e.Details["column"] != 3 {
			t.Errorf("err = %v, want INVALID_QUERY at column 3", err)
		}
	})
}

// TestIndex_Search_sort checks every sort order over the whole fixture.
func TestIndex_Search_sort(t *testing.T) {
	x := openFixture(t)
	tests := []struct {
		sort string
		want []string
	}{
		{"modified", []string{"inbox", "projects/beta/notes", "research/mcp", "projects/alpha/plan", "projects/alpha/retro", "journal/2024-01-15", "people/ann", "people/bob", "archive/old-search"}},
		{"created", []string{"inbox", "research/mcp", "projects/alpha/retro", "journal/2024-01-15", "projects/alpha/plan", "projects/beta/notes", "people/ann", "people/bob", "archive/old-search"}},
		{"title", []string{"projects/alpha/plan", "projects/alpha/retro", "people/ann", "projects/beta/notes", "people/bob", "inbox", "research/mcp", "journal/2024-01-15", "archive/old-search"}},
	}
	for _, tt := range tests {
		t.Run(tt.sort, func(t *testing.T) {
			if got := paths(find(t, x, wiki.SearchRequest{Sort: tt.sort, Limit: 100})); !slices.Equal(got, tt.want) {
				t.Errorf("paths = %q\nwant %q", got, tt.want)
			}
		})
	}
	t.Run("relevance ties by path", func(t *testing.T) {
		// Every note scores the same for the empty query.
		want := []string{"archive/old-search", "inbox", "journal/2024-01-15", "people/ann", "people/bob", "projects/alpha/plan", "projects/alpha/retro", "projects/beta/notes", "research/mcp"}
		if got := paths(find(t, x, wiki.SearchRequest{Sort: "relevance", Limit: 100})); !slices.Equal(got, want) {
			t.Errorf("paths = %q\nwant %q", got, want)
		}
	})
}

// TestIndex_Search_errors checks the errors of bad requests.
func TestIndex_Search_errors(t *testing.T) {
	x := openFixture(t)
	tests := []struct {
		name   string
		req    wiki.SearchRequest
		code   wiki.Code
		column int
	}{
		{"unknown sort", wiki.SearchRequest{Sort: "size"}, wiki.CodeInvalidParams, 0},
		{"negative limit", wiki.SearchRequest{Limit: -1}, wiki.CodeInvalidParams, 0},
		{"bad cursor", wiki.SearchRequest{Cursor: "not a cursor"}, wiki.CodeInvalidParams, 0},
		{"date term without a date", wiki.SearchRequest{Query: &grammar.Query{Root: &grammar.Term{Field: "modified", Value: "soon", Pos: 7}}}, wiki.CodeInvalidQuery, 7},
		{"empty tag", wiki.SearchRequest{Query: &grammar.Query{Root: &grammar.And{Nodes: []grammar.Node{
			&grammar.Term{Value: "a", Pos: 1},
			&grammar.Term{Field: "tag", Value: "#", Pos: 3},
		}}}}, wiki.CodeInvalidQuery, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := x.Search(context.Background(), tt.req)
			if wiki.CodeOf(err) != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
			if tt.column == 0 {
				return
			}
			var e *wiki.Error
			if !errors.As(err, &e) || e.Details["column"] != tt.column {
				t.Errorf("err = %#v, want column %d in details", err, tt.column)
			}
			if !errors.Is(err, wiki.ErrInvalidQuery) {
				t.Errorf("errors.Is(%v, ErrInvalidQuery) = false", err)
			}
		})
	}
}

// TestIndex_Search_limit checks the default and maximum page sizes.
func TestIndex_Search_limit(t *testing.T) {
	x, _ := openTest(t)
	var docs []wiki.Document
	for i := range 120 {
		docs = append(docs, wiki.Document{Path: "n/" + string(rune('a'+i/26)) + string(rune('a'+i%26)), Body: "common"})
	}
	apply(t, x, "c1", docs, nil)
	for _, tt := range []struct{ limit, want int }{{0, 10}, {5, 5}, {100, 100}, {500, 100}} {
		res := find(t, x, wiki.SearchRequest{Query: parse(t, "common"), Limit: tt.limit})
		if len(res.Results) != tt.want || res.Total != 120 || res.NextCursor == "" {
			t.Errorf("limit %d: %d hits, total %d, cursor %q; want %d hits, total 120 and a cursor", tt.limit, len(res.Results), res.Total, res.NextCursor, tt.want)
		}
	}
}

// TestIndex_Search_details checks list properties, Unicode words and notes
// without dates.
func TestIndex_Search_details(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", []wiki.Document{
		{Path: "a", Title: "Crème Brûlée", Body: "Un CAFÉ, s'il vous plaît.", Properties: map[string][]string{"owner": {"Ann", "Bob Smith"}},
			Modified: day(t, "2024-01-01"), Created: day(t, "2024-01-01")},
		{Path: "b", Title: "Zero", Body: "no dates here", Properties: map[string][]string{"owner": {"Carol"}}},
		{Path: "c", Title: "Ünïcode", Body: "日本語 text", Modified: day(t, "2023-01-01"), Created: day(t, "2023-01-01")},
	}, nil)
	for q, want := range map[string][]string{
		`owner:ann`:            {"a"},
		`owner:"bob smith"`:    {"a"},
		`owner:bob`:            {},
		`owner:c*`:             {"b"},
		`café`:                 {"a"},
		`crème`:                {"a"},
		`title:"crème brûlée"`: {"a"},
		`ünïcode`:              {"c"},
		`日本語`:                  {"c"},
		`modified:<2000`:       {"b"}, // an unknown date counts as 1970
	} {
		if got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, q)})); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	res := find(t, x, wiki.SearchRequest{Sort: "modified"})
	if got := paths(res); !slices.Equal(got, []string{"a", "c", "b"}) {
		t.Errorf("by modified = %q, want [a c b]", got)
	}
	if m := res.Results[2].Modified; !m.IsZero() {
		t.Errorf("note without a date has Modified %v, want the zero time", m)
	}
}
