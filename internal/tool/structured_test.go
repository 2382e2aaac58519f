package tool

import (
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestEncodeStructured(t *testing.T) {
	out := Object("",
		Req("path", Str("")),
		Req("incoming", ArrayOf("", Object("", Req("links", StrList(""))))),
		Opt("note", Object("", Req("tags", StrList("")))),
		Opt("props", &Schema{Type: "object", Open: true, Values: StrList("")}),
		Opt("free", &Schema{}),
		Opt("maybe", &Schema{Type: "array", Nullable: true}),
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
	if got, err := EncodeStructured(untagged{Path: "p", NextCursor: "c", Inner: Inner{3}}, nil, testWords); err != nil ||
		string(got) != `{"path":"p","next_cursor":"c","last_line":3}` {
		t.Errorf("without a schema: %s, %v", got, err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EncodeStructured(tt.in, out, testWords)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
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

// testWords word the references of the tests' strings.
var testWords = wiki.Words{"restore": "restore_note"}
