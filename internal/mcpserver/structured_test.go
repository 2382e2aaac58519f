package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

func TestEncodeStructured(t *testing.T) {
	out := object("",
		req("path", str("")),
		req("incoming", arrayOf("", object("", req("links", strList(""))))),
		opt("note", object("", req("tags", strList("")))),
		opt("props", &schema{Type: "object", Open: true, Values: strList("")}),
		opt("free", &schema{}),
		opt("maybe", &schema{Type: "array", Nullable: true}),
	)
	type backlink struct {
		Links []string `json:"links"`
	}
	type result struct {
		Path     string              `json:"path"`
		Incoming []backlink          `json:"incoming"`
		Note     *struct{}           `json:"note"`
		Props    map[string][]string `json:"props"`
		Free     any                 `json:"free"`
		Maybe    []int               `json:"maybe"`
		Unknown  []int               `json:"unknown"`
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"no null is left as is", map[string]any{"path": "a<b>", "n": 1.5}, `{"n":1.5,"path":"a<b>"}`},
		{"a nil list, map and record",
			result{Path: "x"},
			`{"path":"x","incoming":[],"note":null,"props":{},"free":null,"maybe":null}`},
		{"nested lists and map values",
			result{Path: "x", Incoming: []backlink{{}}, Props: map[string][]string{"k": nil}, Free: []any{nil}},
			`{"path":"x","incoming":[{"links":[]}],"note":null,"props":{"k":[]},"free":[null],"maybe":null}`},
		{"numbers and strings keep their form",
			map[string]any{"path": "é\n\"", "incoming": nil, "free": uint64(12345678901234567890)},
			`{"free":12345678901234567890,"incoming":[],"path":"é\n\""}`},
	}
	// The core's types have no tags: snake_case names, required
	// properties always, the rest when set, embedded fields promoted.
	type Inner struct{ LastLine int }
	type untagged struct {
		Path       string
		Incoming   []backlink
		NextCursor string
		Props      map[string][]string
		Inner
	}
	tests = append(tests, []struct {
		name string
		in   any
		want string
	}{
		{"untagged, empty", untagged{}, `{"path":"","incoming":[]}`},
		// What the schema does not declare is not on the wire.
		{"untagged, set", untagged{Path: "p", NextCursor: "c", Props: map[string][]string{}, Inner: Inner{3}},
			`{"path":"p","incoming":[],"props":{}}`},
		{"words", untagged{Path: wiki.Sayf("use {restore}")}, `{"path":"use restore_note","incoming":[]}`},
	}...)
	// Without a schema every field is written, by the same names.
	if got, err := encodeStructured(untagged{Path: "p", NextCursor: "c", Inner: Inner{3}}, nil, words); err != nil ||
		string(got) != `{"path":"p","next_cursor":"c","last_line":3}` {
		t.Errorf("without a schema: %s, %v", got, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encodeStructured(tt.in, out, words)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestWords checks that the tools have words for every reference the
// core writes.
func TestWords(t *testing.T) {
	if missing := words.Missing(); len(missing) > 0 {
		t.Errorf("no words for %v", missing)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"CaughtUp": "caught_up", "NextCursor": "next_cursor", "HTTPAddr": "http_addr", "ID": "id",
		"Line2": "line2", "GitCreated": "git_created", "OldVersion": "old_version", "URL": "url",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkEncodeStructured encodes a read_note result by its output
// schema, next to encoding/json writing the same value.
func BenchmarkEncodeStructured(b *testing.B) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	r := &wiki.ReadResult{
		Path: "projects/alpha/plan", File: "projects/alpha/plan.md", Title: "Plan",
		Tags: []string{"project", "alpha"}, Properties: map[string]any{"title": "Plan", "tags": []any{"project", "alpha"}, "status": "active"},
		Dates:   wiki.Dates{Created: &now, CreatedSource: "frontmatter", Modified: &now, ModifiedSource: "git"},
		Version: "d0d2083db16d0842dd4d28039960b6f8f6ac1d8c", Commit: "fd6bbc9fbbc04a5f8e610e08b3540dd2d2e95b48",
		Headings: []wiki.HeadingInfo{{Level: 1, Text: "Plan", Line: 5}, {Level: 2, Text: "Goals", Line: 9}},
		Content:  strings.Repeat("Some text of the plan, with [[links]] and <tags>.\n", 40), TotalChars: 2000,
	}
	out := readNoteTool().output
	b.Run("schema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeStructured(r, out, words); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestSignificant(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0.25221181015543165, 0.252},
		{0.0061234, 0.00612},
		{12.345, 12.3},
		{1234.5, 1230},
		{-0.0061234, -0.00612},
		{0, 0},
		{1, 1},
	} {
		if got := significant(tt.in, 3); got != tt.want {
			t.Errorf("significant(%v, 3) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
