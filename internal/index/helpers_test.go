package index

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/wiki"
)

// day returns midnight UTC of a date written as 2006-01-02.
func day(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		tb.Fatalf("parse date %q: %v", s, err)
	}
	return t
}

// fixture returns a small wiki with one note for each feature the queries
// exercise.
func fixture(tb testing.TB) []wiki.Document {
	tb.Helper()
	props := func(kv ...string) map[string][]string {
		m := map[string][]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = append(m[kv[i]], kv[i+1])
		}
		return m
	}
	return []wiki.Document{
		{
			Path: "projects/alpha/plan", Title: "Alpha Plan",
			Tags:       []string{"project/alpha", "Planning"},
			Properties: props("status", "active", "type", "plan"),
			Created:    day(tb, "2024-01-10"), Modified: day(tb, "2024-03-05"),
			Links:    []string{"projects/beta/notes", "people/ann"},
			BodyLine: 6,
			Body: "# Alpha Plan\n" +
				"\n" +
				"The alpha project ships the wiki search.\n" +
				"We use the Model Context Protocol everywhere.\n",
		},
		{
			Path: "projects/alpha/retro", Title: "Alpha Retro",
			Tags:       []string{"project/alpha", "meeting"},
			Properties: props("status", "done"),
			Created:    day(tb, "2024-02-01"), Modified: day(tb, "2024-02-20"),
			Links:    []string{"projects/alpha/plan"},
			BodyLine: 1,
			Body:     "Retro notes: search was slow.\nAction: index folders.\n",
		},
		{
			Path: "projects/beta/notes", Title: "Beta Notes", Aliases: []string{"Beta Journal"},
			Tags:       []string{"project/beta"},
			Properties: props("status", "active"),
			Created:    day(tb, "2023-11-01"), Modified: day(tb, "2024-04-01"),
			Links:    []string{"Projects/Alpha/Plan.md"},
			BodyLine: 4,
			Body:     "Beta explores protocols.\nThe context protocol model is different.\n",
		},
		{
			Path: "people/ann", Title: "Ann",
			Tags:       []string{"person"},
			Properties: props("type", "person", "role", "Engineer"),
			Created:    day(tb, "2023-05-01"), Modified: day(tb, "2023-06-01"),
			BodyLine: 1,
			Body:     "Ann leads Alpha.\n",
		},
		{
			Path: "people/bob", Title: "Bob",
			Tags:       []string{"person", "archived"},
			Properties: props("type", "person"),
			Created:    day(tb, "2022-01-01"), Modified: day(tb, "2022-02-01"),
			BodyLine: 1,
			Body:     "Bob left. Searching for a replacement.\n",
		},
		{
			Path: "journal/2024-01-15", Title: "Meeting Notes Jan 15",
			Tags:    []string{"meeting", "Daily"},
			Created: day(tb, "2024-01-15"), Modified: day(tb, "2024-01-15"),
			Links:    []string{"people/ann", "projects/alpha/plan"},
			BodyLine: 1,
			Body:     "Met Ann about the search index.\nDecided to use MCP as primary interface.\n",
		},
		{
			Path: "inbox", Title: "Inbox",
			Created: day(tb, "2024-05-01"), Modified: day(tb, "2024-05-02"),
			BodyLine: 1,
			Body:     "Quick capture: research MCP servers.\n",
		},
		{
			Path: "archive/old-search", Title: "Old Search Ideas", Aliases: []string{"Search v0"},
			Tags:    []string{"archived", "project/alpha"},
			Created: day(tb, "2021-01-01"), Modified: day(tb, "2021-06-01"),
			BodyLine: 1,
			Body:     "Grep was enough.\n",
		},
		{
			Path: "research/mcp", Title: "MCP Research",
			Tags:       []string{"research", "mcp"},
			Properties: props("status", "draft"),
			Created:    day(tb, "2024-03-01"), Modified: day(tb, "2024-03-10"),
			Links:    []string{"projects/alpha/plan", "inbox"},
			BodyLine: 3,
			Body: "Notes on the Model Context Protocol.\n" +
				"It started as a way for assistants to reach tools, files and prompts without a custom integration for every pair of client and server, and the Model Context Protocol now has many servers and clients in the wild.\n",
		},
	}
}

// openTest opens an index in a fresh temporary directory, with its log in
// the returned buffer, and closes it when the test ends.
func openTest(tb testing.TB) (*Index, *syncBuffer) {
	tb.Helper()
	log := &syncBuffer{}
	x, err := Open(context.Background(), tb.TempDir()+"/wikid/index", Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { _ = x.Close(context.Background()) })
	return x, log
}

// openFixture opens an index holding fixture at commit "c1".
func openFixture(tb testing.TB) *Index {
	tb.Helper()
	x, _ := openTest(tb)
	apply(tb, x, "c1", fixture(tb), nil)
	return x
}

func apply(tb testing.TB, x *Index, to string, docs []wiki.Document, deleted []string) {
	tb.Helper()
	if err := x.apply(context.Background(), to, docs, deleted); err != nil {
		tb.Fatalf("apply(%s): %v", to, err)
	}
}

// parse parses a query, failing the test if it does not parse.
func parse(tb testing.TB, q string) *grammar.Query {
	tb.Helper()
	pq, err := grammar.Parse(q, time.UTC)
	if err != nil {
		tb.Fatalf("Parse(%q): %v", q, err)
	}
	return pq
}

// find runs a request, failing the test on an error.
func find(tb testing.TB, x *Index, req wiki.SearchRequest) *wiki.SearchResult {
	tb.Helper()
	res, err := x.Search(context.Background(), req)
	if err != nil {
		tb.Fatalf("Search(%+v): %v", req, err)
	}
	return res
}

// paths returns the paths of the hits, in order.
func paths(res *wiki.SearchResult) []string {
	out := []string{}
	for _, h := range res.Results {
		out = append(out, h.Path)
	}
	return out
}

// sortedPaths returns the paths of the hits, sorted.
func sortedPaths(res *wiki.SearchResult) []string {
	out := paths(res)
	slices.Sort(out)
	return out
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
