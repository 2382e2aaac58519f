package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestDecodeArgs(t *testing.T) {
	type item struct {
		Op    string `json:"op"`
		Count int    `json:"count"`
	}
	type args struct {
		Path  string         `json:"path"`
		Limit int            `json:"limit"`
		Ratio float64        `json:"ratio"`
		Flag  bool           `json:"flag"`
		Tags  []string       `json:"tags"`
		Items []item         `json:"items"`
		Set   map[string]any `json:"set"`
		Title *string        `json:"title"`
	}
	in := Object("",
		Req("path", &Schema{Type: "string", MinLength: Ptr(1)}),
		Opt("limit", Integer("", 1, 100)),
		Opt("ratio", &Schema{Type: "number", ExclusiveMin: Ptr(0.0), Max: Ptr(1.0)}),
		Opt("flag", Boolean("")),
		Opt("tags", &Schema{Type: "array", Items: &Schema{Type: "string"}, MaxItems: Ptr(2)}),
		Opt("items", &Schema{Type: "array", MinItems: Ptr(1), Items: Object("",
			Req("op", Enum("", "a", "b")), Opt("count", Integer("", 0, 5)))}),
		Opt("set", OpenObject("")),
		Opt("title", Str("")),
	)
	title := "T"
	tests := []struct {
		name    string
		raw     string
		want    args
		message string // the error's message, "" for success
	}{
		{"all", `{"path":"p","limit":3,"ratio":0.5,"flag":true,"tags":["x"],"items":[{"op":"a","count":2}],"set":{"k":[1,"v"]},"title":"T"}`,
			args{Path: "p", Limit: 3, Ratio: 0.5, Flag: true, Tags: []string{"x"}, Items: []item{{"a", 2}},
				Set: map[string]any{"k": []any{json.Number("1"), "v"}}, Title: &title}, ""},
		{"integer written as a float", `{"path":"p","limit":3.0}`, args{Path: "p", Limit: 3}, ""},
		{"no arguments", ``, args{}, `missing required argument "path"`},
		{"null arguments", `null`, args{}, `missing required argument "path"`},
		{"not an object", `[1]`, args{}, `must be an object, not an array`},
		{"unknown", `{"path":"p","pth":"q"}`, args{}, `unknown argument "pth"`},
		{"unknown nested", `{"path":"p","items":[{"op":"a","opp":1}]}`, args{}, `unknown key "items[0].opp"`},
		{"wrong type", `{"path":1}`, args{}, `argument "path" must be a string, not the number 1`},
		{"null", `{"path":"p","title":null}`, args{}, `argument "title" must be a string, not null`},
		{"empty string", `{"path":""}`, args{}, `argument "path" must not be empty`},
		{"fraction", `{"path":"p","limit":2.5}`, args{}, `argument "limit" must be a whole number, not 2.5`},
		{"below minimum", `{"path":"p","limit":0}`, args{}, `argument "limit" must be at least 1, not 0`},
		{"above maximum", `{"path":"p","limit":101}`, args{}, `argument "limit" must be at most 100, not 101`},
		{"huge", `{"path":"p","limit":1e400}`, args{}, `argument "limit" 1e400 is out of range`},
		{"exclusive minimum", `{"path":"p","ratio":0}`, args{}, `argument "ratio" must be more than 0, not 0`},
		{"boolean as string", `{"path":"p","flag":"true"}`, args{}, `argument "flag" must be true or false, not a string`},
		{"array as string", `{"path":"p","tags":"x"}`, args{}, `argument "tags" must be an array, not a string`},
		{"too many items", `{"path":"p","tags":["a","b","c"]}`, args{}, `argument "tags" takes at most 2 items, not 3`},
		{"too few items", `{"path":"p","items":[]}`, args{}, `argument "items" needs at least 1 item, not 0`},
		{"wrong item", `{"path":"p","tags":["a",2]}`, args{}, `argument "tags[1]" must be a string, not the number 2`},
		{"enum", `{"path":"p","items":[{"op":"a"},{"op":"c"}]}`, args{}, `argument "items[1].op" must be one of a, b, not "c"`},
		{"missing nested", `{"path":"p","items":[{"count":1}]}`, args{}, `missing required argument "items[0].op"`},
		{"open object", `{"path":"p","set":"x"}`, args{}, `argument "set" must be an object, not a string`},
		{"not JSON", `{"path":`, args{}, `arguments are not valid JSON`},
		{"long string", `{"path":"` + strings.Repeat("p", maxString+1) + `"}`, args{}, `argument "path" is 4097 bytes long, and the limit is 4096`},
		{"long list", `{"path":"p","items":[` + strings.Repeat(`{"op":"a"},`, maxItems) + `{"op":"a"}]}`, args{}, `argument "items" takes at most 1000 items, not 1001`},
		{"many keys", `{"path":"p","set":{` + manyKeys(maxItems+1) + `}}`, args{}, `argument "set" takes at most 1000 keys, not 1001`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got args
			err := DecodeArgs([]byte(tt.raw), in, &got)
			if tt.message == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("got  %+v\nwant %+v", got, tt.want)
				}
				return
			}
			var e *wiki.Error
			if err == nil || !asNoteError(err, &e) || e.Code != wiki.CodeInvalidParams || !strings.Contains(e.Message, tt.message) {
				t.Errorf("error %v, want INVALID_PARAMS %q", err, tt.message)
			}
		})
	}
}

// manyKeys returns n members of a JSON object.
func manyKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"k%d":1`, i)
	}
	return strings.Join(keys, ",")
}

func asNoteError(err error, e **wiki.Error) bool {
	ne, ok := err.(*wiki.Error)
	*e = ne
	return ok
}

func TestSchema_MarshalJSON(t *testing.T) {
	s := Object("d",
		Req("b", Str("B").Def("x")),
		Opt("a", &Schema{Type: "array", Items: Enum("", "p", "q"), MinItems: Ptr(1)}),
		Opt("m", OpenObject("")),
	)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","description":"d","properties":{"b":{"type":"string","description":"B","default":"x"},` +
		`"a":{"type":"array","minItems":1,"items":{"type":"string","enum":["p","q"]}},` +
		`"m":{"type":"object","properties":{},"additionalProperties":true}},"required":["b"],"additionalProperties":false}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	want = `{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"array","items":{"type":"string","enum":["p","q"]}},` +
		`"m":{"type":"object","properties":{},"additionalProperties":true}}}`
	if pb, _ := json.Marshal(s.Published()); string(pb) != want {
		t.Errorf("published: %s\nwant      %s", pb, want)
	}
	if s.Open || s.Props[0].Schema.Description != "B" || !s.Props[0].Required {
		t.Error("published changed the original")
	}
}

// TestDecodeArgs_SeedObject checks a seed's input schema, which says
// nothing of other keys: they are ignored, as the seed's server ignores
// them, while the keys it lists are checked as any.
func TestDecodeArgs_SeedObject(t *testing.T) {
	type args struct {
		Path  string `json:"path"`
		Limit int    `json:"limit"`
	}
	in := SeedObject([]string{"path"}, Opt("path", Str("")), Opt("limit", SeedInt("")))
	tests := []struct {
		name    string
		raw     string
		want    args
		message string // the error's message, "" for success
	}{
		{"listed keys", `{"path":"p","limit":3}`, args{Path: "p", Limit: 3}, ""},
		{"another key", `{"path":"p","folder":"x"}`, args{Path: "p"}, ""},
		{"another key of any type", `{"path":"p","extra":{"a":[1]},"limit":2}`, args{Path: "p", Limit: 2}, ""},
		{"a listed key of the wrong type", `{"path":"p","limit":"x"}`, args{}, `argument "limit" must be an integer, not a string`},
		{"a required key missing", `{"folder":"x"}`, args{}, `missing required argument "path"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got args
			err := DecodeArgs([]byte(tt.raw), in, &got)
			switch {
			case tt.message == "" && err != nil:
				t.Fatalf("DecodeArgs(%s) = %v", tt.raw, err)
			case tt.message != "" && (err == nil || !strings.Contains(err.Error(), tt.message)):
				t.Fatalf("DecodeArgs(%s) = %v, want %q", tt.raw, err, tt.message)
			case tt.message == "" && got != tt.want:
				t.Errorf("DecodeArgs(%s) = %+v, want %+v", tt.raw, got, tt.want)
			}
		})
	}
}
