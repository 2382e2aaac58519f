package index

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_Search_snippets checks snippets end to end: file line numbers,
// «» marks from bleve's term locations, and the cut of long lines.
func TestIndex_Search_snippets(t *testing.T) {
	x := openFixture(t)
	long := "It started as a way for assistants to reach tools, files and prompts without a custom integration for every pair of client and server, and the Model Context Protocol now has many servers and clients in the wild."
	tests := []struct {
		query string
		path  string
		want  []wiki.Snippet
	}{
		{"protocol", "projects/alpha/plan", []wiki.Snippet{
			{Line: 9, Text: "We use the Model Context «Protocol» everywhere."},
		}},
		{`"model context protocol"`, "projects/alpha/plan", []wiki.Snippet{
			{Line: 9, Text: "We use the «Model Context Protocol» everywhere."},
		}},
		{"alpha", "projects/alpha/plan", []wiki.Snippet{
			{Line: 6, Text: "# «Alpha» Plan"},
			{Line: 8, Text: "The «alpha» project ships the wiki search."},
		}},
		{"search* index", "journal/2024-01-15", []wiki.Snippet{
			{Line: 1, Text: "Met Ann about the «search index»."},
		}},
		{"search tag:meeting", "projects/alpha/retro", []wiki.Snippet{
			{Line: 1, Text: "Retro notes: «search» was slow."},
		}},
		// A word's other forms are marked too.
		{"protocol", "projects/beta/notes", []wiki.Snippet{
			{Line: 4, Text: "Beta explores «protocols»."},
			{Line: 5, Text: "The context «protocol» model is different."},
		}},
		{`"protocol"`, "projects/beta/notes", []wiki.Snippet{
			{Line: 5, Text: "The context «protocol» model is different."},
		}},
		{"title:beta", "projects/beta/notes", nil}, // no match in the body
		// A negated word is never marked, even where the note holds it.
		{`"protocol" OR -different`, "projects/beta/notes", []wiki.Snippet{
			{Line: 5, Text: "The context «protocol» model is different."},
		}},
		{`-(-different) "protocol"`, "projects/beta/notes", []wiki.Snippet{
			{Line: 5, Text: "The context «protocol» model is «different»."},
		}},
		{"protocols -different", "projects/alpha/plan", []wiki.Snippet{
			{Line: 9, Text: "We use the Model Context «Protocol» everywhere."},
		}},
		// The words of a phrase are marked only where they are adjacent.
		{`"protocol model"`, "projects/beta/notes", []wiki.Snippet{
			{Line: 5, Text: "The context «protocol model» is different."},
		}},
		{`"clients"`, "research/mcp", []wiki.Snippet{
			{Line: 4, Text: "…for every pair of client and server, and the Model Context Protocol now has many servers and «clients» in the wild."},
		}},
		{"clients", "research/mcp", []wiki.Snippet{
			{Line: 4, Text: "…a custom integration for every pair of «client» and server, and the Model Context Protocol now has many servers and…"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100, Snippets: 3})
			for _, h := range res.Results {
				if h.Path != tt.path {
					continue
				}
				if !slices.Equal(h.Snippets, tt.want) {
					t.Errorf("snippets =\n%+v\nwant\n%+v", h.Snippets, tt.want)
				}
				return
			}
			t.Fatalf("no hit %s in %q", tt.path, paths(res))
		})
	}
	t.Run("long line cut around the match", func(t *testing.T) {
		res := find(t, x, wiki.SearchRequest{Query: parse(t, "integration"), Snippets: 3})
		if len(res.Results) != 1 || len(res.Results[0].Snippets) != 1 {
			t.Fatalf("hits = %+v", res.Results)
		}
		s := res.Results[0].Snippets[0]
		if s.Line != 4 || !strings.HasPrefix(s.Text, "…") || !strings.HasSuffix(s.Text, "…") || !strings.Contains(s.Text, "«integration»") {
			t.Errorf("snippet = %+v", s)
		}
		plain := strings.NewReplacer("«", "", "»", "", "…", "").Replace(s.Text)
		if !strings.Contains(long, plain) {
			t.Errorf("snippet %q is not a piece of the line", plain)
		}
		if n := utf8.RuneCountInString(plain); n > snippetWidth || n < snippetWidth-25 {
			t.Errorf("snippet has %d characters, want about %d", n, snippetWidth)
		}
	})
	t.Run("off", func(t *testing.T) {
		res := find(t, x, wiki.SearchRequest{Query: parse(t, "protocol")})
		for _, h := range res.Results {
			if h.Snippets != nil {
				t.Errorf("%s has snippets without asking", h.Path)
			}
		}
	})
}

// TestIndex_Search_snippetsBest checks that a note with many matching lines
// gets three snippets, from the lines with the most distinct matched terms,
// in line order.
func TestIndex_Search_snippetsBest(t *testing.T) {
	x, _ := openTest(t)
	body := strings.Join([]string{
		"apple only",           // 1: one term
		"apple and banana",     // 2: two terms
		"nothing here",         // 3
		"banana only",          // 4: one term
		"apple banana cherry",  // 5: three terms
		"cherry and apple pie", // 6: two terms
		"apple apple apple",    // 7: one term
	}, "\n")
	apply(t, x, "c1", []wiki.Document{{Path: "fruit", Body: body, BodyLine: 10}}, nil)
	res := find(t, x, wiki.SearchRequest{Query: parse(t, "apple OR banana OR cherry"), Snippets: 3})
	if len(res.Results) != 1 {
		t.Fatalf("hits = %q", paths(res))
	}
	want := []wiki.Snippet{
		{Line: 11, Text: "«apple» and «banana»"},
		{Line: 14, Text: "«apple banana cherry»"},
		{Line: 15, Text: "«cherry» and «apple» pie"},
	}
	if got := res.Results[0].Snippets; !slices.Equal(got, want) {
		t.Errorf("snippets =\n%+v\nwant\n%+v", got, want)
	}
}

// TestIndex_Search_oneSnippet checks that a single snippet is the line
// that says most, and never the heading that only repeats the title.
func TestIndex_Search_oneSnippet(t *testing.T) {
	x := openFixture(t)
	res := find(t, x, wiki.SearchRequest{Query: parse(t, "alpha"), Limit: 100, Snippets: 1})
	for _, h := range res.Results {
		if h.Path != "projects/alpha/plan" {
			continue
		}
		want := []wiki.Snippet{{Line: 8, Text: "The «alpha» project ships the wiki search."}}
		if !slices.Equal(h.Snippets, want) {
			t.Errorf("snippets = %+v, want %+v", h.Snippets, want)
		}
		return
	}
	t.Fatalf("no hit projects/alpha/plan in %q", paths(res))
}

// TestMarkLine checks the cutting and marking of one line.
func TestMarkLine(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		spans []span
		want  string
	}{
		{"short", "  one two three  ", []span{{6, 9}}, "one «two» three"},
		{"two marks", "one two three", []span{{0, 3}, {8, 13}}, "«one» two «three»"},
		{"unicode", "naïve café au lait", []span{{7, 12}}, "naïve «café» au lait"},
		{"start of a long line", "match " + strings.Repeat("word ", 60), []span{{0, 5}}, "«match» " + strings.TrimSpace(strings.Repeat("word ", 23)) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markLine(tt.line, 0, len(tt.line), tt.spans); got != tt.want {
				t.Errorf("markLine = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRepeatsTitle(t *testing.T) {
	for _, tt := range []struct {
		line, title string
		want        bool
	}{
		{"# Launch note 0", "Launch note 0", true},
		{"  ## 田中 太郎 ", "田中 太郎", true},
		{"Launch note 0", "Launch note 0", true},
		{"The launch checklist", "Launch note 0", false},
		{"# Launch note", "Launch note 0", false},
		{"# Launch note 0 and more", "Launch note 0", false},
		{"#", "", false},
	} {
		if got := repeatsTitle(tt.line, tt.title); got != tt.want {
			t.Errorf("repeatsTitle(%q, %q) = %v", tt.line, tt.title, got)
		}
	}
}
