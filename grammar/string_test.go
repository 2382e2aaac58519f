package grammar

import (
	"testing"
	"time"
)

// TestQuery_String checks the canonical form and that it parses back to
// the same tree.
func TestQuery_String(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"", ""},
		{"mcp", "mcp"},
		{"a AND b", "a b"},
		{"a  AND   b", "a b"},
		{"NOT x", "-x"},
		{"NOT (a OR b)", "-(a OR b)"},
		{"NOT (a b)", "-(a b)"},
		{"NOT NOT x", "--x"},
		{"a OR b c", "a OR b c"},
		{"(a OR b) c", "(a OR b) c"},
		{"(a b) OR c", "a b OR c"},
		{"a OR (b OR c)", "a OR b OR c"},
		{"((a))", "a"},
		{"Tag:X", "tag:X"},
		{"TITLE:meet*", "title:meet*"},
		{"foo***", "foo*"},
		{`"say \"hi\""`, `"say \"hi\""`},
		{`"C:\Users"`, `"C:\Users"`},
		{`"ends in \\"`, `"ends in \\"`},
		{`"two \\\\ slashes"`, `"two \\\ slashes"`}, // only the first needs escaping
		{`tag:"with space"`, `tag:"with space"`},
		{`modified:"2024-06"`, "modified:2024-06"},
		{"modified:=2024", "modified:=2024"},
		{`a"b"`, `a "b"`},
		{"https://x.y/z*", "https://x.y/z*"},
		{"(a)OR(b)", "a OR b"},
		{"-(tag:a OR tag:b) -(c d)", "-(tag:a OR tag:b) -(c d)"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			q := mustParse(t, tt.input, time.UTC)
			got := q.String()
			if got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
			checkRoundTrip(t, q, time.UTC)
		})
	}
}

// TestQuery_StringNested checks that String keeps the meaning of trees that
// Parse never makes but a caller might: an And in an And, an Or in an Or.
func TestQuery_StringNested(t *testing.T) {
	a, b, c := &Term{Value: "a"}, &Term{Value: "b"}, &Term{Value: "c"}
	tests := []struct {
		name string
		q    *Query
		want string
	}{
		{"and in and", &Query{Root: &And{Nodes: []Node{a, &And{Nodes: []Node{b, c}}}}}, "a (b c)"},
		{"or in or", &Query{Root: &Or{Nodes: []Node{a, &Or{Nodes: []Node{b, c}}}}}, "a OR (b OR c)"},
		{"or in and", &Query{Root: &And{Nodes: []Node{&Or{Nodes: []Node{a, b}}, c}}}, "(a OR b) c"},
		{"and in or", &Query{Root: &Or{Nodes: []Node{&And{Nodes: []Node{a, b}}, c}}}, "a b OR c"},
		{"not of and", &Query{Root: &Not{Node: &And{Nodes: []Node{a, b}}}}, "-(a b)"},
		{"phrase property", &Query{Root: &Term{Field: "status", Value: `in "progress"`, Phrase: true}}, `status:"in \"progress\""`},
		{"nil query", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.q.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
}

// checkRoundTrip checks that q.String() parses back to the same tree, apart
// from positions, and that its String is the same again.
func checkRoundTrip(tb testing.TB, q *Query, loc *time.Location) {
	tb.Helper()
	s := q.String()
	again, err := Parse(s, loc)
	if err != nil {
		tb.Fatalf("String() = %q does not parse: %v", s, err)
	}
	if got, want := dump(again, false), dump(q, false); got != want {
		tb.Fatalf("String() = %q parses to\n%s\nwant\n%s", s, got, want)
	}
	if s2 := again.String(); s2 != s {
		tb.Fatalf("String() is not stable: %q, then %q", s, s2)
	}
}
