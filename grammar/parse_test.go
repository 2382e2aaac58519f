package grammar

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// example is a query quoted from a specification, with where it comes from.
type example struct {
	source string
	query  string
}

// examples holds every query example of TOOLS.md ("Query language") and of
// the seeds that describe searching, plus the examples of the grammar's own
// specification.
var examples = []example{
	// TOOLS.md, "Query language (search_notes.query)".
	{"TOOLS.md", "word"},
	{"TOOLS.md", "word*"},
	{"TOOLS.md", `"a phrase"`},
	{"TOOLS.md", "title:word"},
	{"TOOLS.md", `title:"a phrase"`},
	{"TOOLS.md", "tag:x"},
	{"TOOLS.md", "tag:project"},
	{"TOOLS.md", "folder:a/b"},
	{"TOOLS.md", "path:a/b*"},
	{"TOOLS.md", "type:x"},
	{"TOOLS.md", "status:x"},
	{"TOOLS.md", "modified:>=2024-01-01"},
	{"TOOLS.md", "created:<2024-06"},
	{"TOOLS.md", "modified:2024-01..2024-03"},
	{"TOOLS.md", "links:x"},
	{"TOOLS.md", "linkedfrom:x"},
	{"TOOLS.md", "a AND b"},
	{"TOOLS.md", "a b"},
	{"TOOLS.md", "a OR b"},
	{"TOOLS.md", "-x"},
	{"TOOLS.md", "NOT x"},
	{"TOOLS.md", "( … )"},

	// seeds/002 (Wiki-AI), search_notes "Query Syntax": the syntax column.
	{"seed 002 syntax", `"phrase"`},
	{"seed 002 syntax", "tag:value"},
	{"seed 002 syntax", "folder:path"},
	{"seed 002 syntax", "-term"},
	{"seed 002 syntax", "(...)"},
	// The example column.
	{"seed 002 syntax", "mcp"},
	{"seed 002 syntax", `"model context protocol"`},
	{"seed 002 syntax", "title:meeting"},
	{"seed 002 syntax", "tag:research"},
	{"seed 002 syntax", "folder:projects/wiki-ai"},
	{"seed 002 syntax", "mcp AND tag:research"},
	{"seed 002 syntax", "mcp -tag:archived"},
	{"seed 002 syntax", "(tag:urgent OR tag:priority)"},
	// "Example queries" (mcp, title:meeting and folder:projects/wiki-ai
	// are above).
	{"seed 002 examples", "mcp tag:research"},
	{"seed 002 examples", `"model context protocol" tag:mcp -tag:archived`},
	{"seed 002 examples", "(tag:urgent OR tag:priority) folder:projects"},
	// "No results" response.
	{"seed 002 response", "quantum computing"},

	// seeds/004 (Obsidian MCP) names search_by_date and search_by_property
	// without a query syntax; these are its examples' dates and paths
	// written in this language.
	{"seed 004 by date", "modified:2024-01-15"},
	{"seed 004 by date", "created:>=2024-01-15"},
	{"seed 004 by property", "status:draft"},
	{"seed 004 by path", `path:"Projects/AI Research"`},
	{"seed 004 by path", "folder:Daily modified:>2024-01-14"},

	// The grammar's specification: dates, values, words with colons,
	// case, precedence.
	{"spec dates", "created:2024"},
	{"spec dates", "created:2024-06"},
	{"spec dates", "created:2024-06-01"},
	{"spec dates", "created:2024-06-01T10:00:00Z"},
	{"spec dates", "modified:>2024-06"},
	{"spec dates", "modified:<=2024"},
	{"spec dates", "modified:2024.."},
	{"spec dates", "modified:..2024-06"},
	{"spec dates", "modified:=2024-06-01"},
	{"spec values", `tag:"with space"`},
	{"spec values", `status:"in progress"`},
	{"spec words", "https://x.y/z"},
	{"spec words", "12:30"},
	{"spec words", ":x"},
	{"spec words", "Tag:x"},
	{"spec words", "a and b"},
	{"spec precedence", "a OR b c"},
	{"spec precedence", "-a OR b"},
	{"spec precedence", "NOT (a OR b)"},
	{"spec benchmark", `word tag:x folder:y -tag:z "a phrase" modified:>=2024-01`},
}

// TestParse_Examples parses every example and compares its tree with
// testdata/examples.golden; run with -update to rewrite the file.
func TestParse_Examples(t *testing.T) {
	var got strings.Builder
	for _, ex := range examples {
		q, err := Parse(ex.query, time.UTC)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", ex.source, ex.query, err)
			continue
		}
		fmt.Fprintf(&got, "# %s\nquery:     %s\ncanonical: %s\n%s\n", ex.source, ex.query, q, dump(q, true))
	}
	golden := filepath.Join("testdata", "examples.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden file (run go test -update to create it): %v", err)
	}
	if got.String() != string(want) {
		t.Errorf("trees differ from %s (run go test -update and review the diff):\n%s", golden, got.String())
	}
}

// TestParse_Terms checks single terms field by field.
func TestParse_Terms(t *testing.T) {
	tests := []struct {
		input string
		want  Term
	}{
		{"mcp", Term{Value: "mcp", Pos: 1}},
		{"meet*", Term{Value: "meet", Prefix: true, Pos: 1}},
		{"meet**", Term{Value: "meet", Prefix: true, Pos: 1}},
		{"f*o", Term{Value: "f*o", Pos: 1}},
		{"*foo", Term{Value: "*foo", Pos: 1}},
		{"and", Term{Value: "and", Pos: 1}},
		{"ANDROID", Term{Value: "ANDROID", Pos: 1}},
		{"well-known", Term{Value: "well-known", Pos: 1}},
		{"  spaced  ", Term{Value: "spaced", Pos: 3}},
		{`"a phrase"`, Term{Value: "a phrase", Phrase: true, Pos: 1}},
		{`"meet*"`, Term{Value: "meet*", Phrase: true, Pos: 1}},
		{`"AND"`, Term{Value: "AND", Phrase: true, Pos: 1}},
		{`"say \"hi\""`, Term{Value: `say "hi"`, Phrase: true, Pos: 1}},
		{`"back\\slash"`, Term{Value: `back\slash`, Phrase: true, Pos: 1}},
		{`"C:\Users"`, Term{Value: `C:\Users`, Phrase: true, Pos: 1}},
		{"https://x.y/z", Term{Value: "https://x.y/z", Pos: 1}},
		{"file:///etc/hosts", Term{Value: "file:///etc/hosts", Pos: 1}},
		{"12:30", Term{Value: "12:30", Pos: 1}},
		{":x", Term{Value: ":x", Pos: 1}},
		{"a.b:c", Term{Value: "a.b:c", Pos: 1}},
		{"title:meet", Term{Field: FieldTitle, Value: "meet", Pos: 1}},
		{"TITLE:Meet", Term{Field: FieldTitle, Value: "Meet", Pos: 1}},
		{"title:meet*", Term{Field: FieldTitle, Value: "meet", Prefix: true, Pos: 1}},
		{`title:"a phrase"`, Term{Field: FieldTitle, Value: "a phrase", Phrase: true, Pos: 1}},
		{"Tag:x", Term{Field: FieldTag, Value: "x", Pos: 1}},
		{"tag:project/alpha", Term{Field: FieldTag, Value: "project/alpha", Pos: 1}},
		{`tag:"with space"`, Term{Field: FieldTag, Value: "with space", Phrase: true, Pos: 1}},
		{"tag:AND", Term{Field: FieldTag, Value: "AND", Pos: 1}},
		{"folder:a/b", Term{Field: FieldFolder, Value: "a/b", Pos: 1}},
		{"path:a/b*", Term{Field: FieldPath, Value: "a/b*", Pos: 1}},
		{`path:"My Notes/*"`, Term{Field: FieldPath, Value: "My Notes/*", Phrase: true, Pos: 1}},
		{"links:x", Term{Field: FieldLinks, Value: "x", Pos: 1}},
		{"linkedfrom:x", Term{Field: FieldLinkedFrom, Value: "x", Pos: 1}},
		{"links:https://x.y", Term{Field: FieldLinks, Value: "https://x.y", Pos: 1}},
		{"status:draft", Term{Field: "status", Value: "draft", Pos: 1}},
		{`status:"in progress"`, Term{Field: "status", Value: "in progress", Phrase: true, Pos: 1}},
		{"due_date:x", Term{Field: "due_date", Value: "x", Pos: 1}},
		{"my-key2:x", Term{Field: "my-key2", Value: "x", Pos: 1}},
		{"a:b:c", Term{Field: "a", Value: "b:c", Pos: 1}},
		{"x:-1", Term{Field: "x", Value: "-1", Pos: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			q := mustParse(t, tt.input, time.UTC)
			got, ok := q.Root.(*Term)
			if !ok {
				t.Fatalf("root is %T, want *Term", q.Root)
			}
			if *got != tt.want {
				t.Errorf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// TestParse_Positions checks the column of every term in a longer query.
func TestParse_Positions(t *testing.T) {
	q := mustParse(t, `a -tag:x (NOT "b c" OR é:1) é`, time.UTC)
	var got []int
	var walk func(Node)
	walk = func(n Node) {
		switch n := n.(type) {
		case *And:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *Or:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *Not:
			walk(n.Node)
		case *Term:
			got = append(got, n.Pos)
		}
	}
	walk(q.Root)
	want := []int{1, 4, 15, 24, 30}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("positions %v, want %v (byte columns)", got, want)
	}
}

// TestParse_Empty checks that blank queries give a nil Root.
func TestParse_Empty(t *testing.T) {
	for _, input := range []string{"", " ", "\t\n  "} {
		t.Run(fmt.Sprintf("%q", input), func(t *testing.T) {
			q := mustParse(t, input, nil)
			if q.Root != nil {
				t.Errorf("Root = %v, want nil", q.Root)
			}
			if s := q.String(); s != "" {
				t.Errorf("String() = %q, want empty", s)
			}
		})
	}
}

// TestParse_Precedence checks how operators group.
func TestParse_Precedence(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"a OR b c", "(or a (and b c))"},
		{"a b OR c", "(or (and a b) c)"},
		{"-a OR b", "(or (not a) b)"},
		{"NOT (a OR b)", "(not (or a b))"},
		{"NOT a b", "(and (not a) b)"},
		{"a AND b OR c AND d", "(or (and a b) (and c d))"},
		{"a OR b AND c", "(or a (and b c))"},
		{"a b AND c", "(and a b c)"},
		{"(a OR b) c", "(and (or a b) c)"},
		{"(a OR b) AND (c OR d)", "(and (or a b) (or c d))"},
		{"a (b c) d", "(and a b c d)"},
		{"a OR (b OR c)", "(or a b c)"},
		{"((a))", "a"},
		{"NOT NOT a", "(not (not a))"},
		{"--a", "(not (not a))"},
		{"a AND NOT b", "(and a (not b))"},
		{"-(a b) c", "(and (not (and a b)) c)"},
		{"-tag:x -tag:y", "(and (not tag:x) (not tag:y))"},
		{"a and b or c", "(and a and b or c)"},
		{"(a)OR(b)", "(or a b)"},
		{`a"b"c`, `(and a "b" c)`},
		{"NOT(a)", "(not a)"},
		{"a AND-b", "(and a AND-b)"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			q := mustParse(t, tt.input, nil)
			if got := shape(q.Root); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestParse_Concurrent parses from several goroutines at once, for the
// race detector: Parse shares one participle parser.
func TestParse_Concurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, ex := range examples[i:] {
				if _, err := Parse(ex.query, time.UTC); err != nil {
					t.Errorf("Parse(%q): %v", ex.query, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestQuery_Terms checks that Terms lists the leaves of the tree from left
// to right, for parsed queries and for a query built by hand.
func TestQuery_Terms(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"", ""},
		{"a", "a"},
		{"a -(b OR links:c) d*", "a b links:c d*"},
		{`NOT (tag:x OR "p q") OR linkedfrom:y z`, `tag:x "p q" linkedfrom:y z`},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			q := mustParse(t, tt.input, nil)
			if got := termStrings(q.Terms()); got != tt.want {
				t.Errorf("Terms() = %q, want %q", got, tt.want)
			}
			checkTerms(t, q)
		})
	}
	t.Run("by hand", func(t *testing.T) {
		a, b, c := &Term{Value: "a"}, &Term{Value: "b"}, &Term{Value: "c"}
		q := &Query{Root: &Or{Nodes: []Node{&And{Nodes: []Node{a, &Not{Node: b}}}, c}}}
		if got := termStrings(q.Terms()); got != "a b c" {
			t.Errorf("Terms() = %q, want %q", got, "a b c")
		}
		if got := (*Query)(nil).Terms(); got != nil {
			t.Errorf("nil query: Terms() = %v", got)
		}
	})
}

// TestParse_Plain checks which queries read as terms side by side.
func TestParse_Plain(t *testing.T) {
	tests := []struct {
		input string
		want  bool
	}{
		{"how do I sync my notes", true},
		{`sync "my notes" tag:x`, true},
		{"sync*", true},
		{"well-known words", true},
		{"sync AND notes", false},
		{"sync OR notes", false},
		{"sync NOT notes", true},
		{"sync -notes", true},
		{"prune -a --format", true},
		{"(sync notes)", false},
		{"and or not", true},
	}
	for _, tt := range tests {
		if got := mustParse(t, tt.input, time.UTC).Plain(); got != tt.want {
			t.Errorf("%q: Plain() = %v, want %v", tt.input, got, tt.want)
		}
	}
	if (&Query{Root: &Term{Value: "x"}}).Plain() {
		t.Error("a query built by hand is plain")
	}
}
