package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// argTypes makes each tool's argument struct, by tool name.
var argTypes = map[string]func() any{
	"read_note": func() any { return new(readArgs) }, "read_image": func() any { return new(readImageArgs) }, "write_note": func() any { return new(writeArgs) },
	"edit_note": func() any { return new(editArgs) }, "update_metadata": func() any { return new(metadataArgs) },
	"move_note": func() any { return new(moveArgs) }, "delete_note": func() any { return new(deleteArgs) },
	"daily_note": func() any { return new(dailyArgs) }, "apply_changes": func() any { return new(applyArgs) },
	"search_notes": func() any { return new(searchArgs) }, "gather_context": func() any { return new(gatherArgs) }, "sync_wiki": func() any { return new(syncArgs) }, "grep_notes": func() any { return new(grepArgs) },
	"list_notes": func() any { return new(listArgs) }, "list_tags": func() any { return new(tagsArgs) },
	"recent_changes": func() any { return new(recentArgs) }, "resolve_notes": func() any { return new(resolveArgs) },
	"related_notes": func() any { return new(relatedArgs) },
	"random_note":   func() any { return new(randomArgs) }, "get_links": func() any { return new(linksArgs) },
	"find_path": func() any { return new(pathArgs) }, "get_hubs": func() any { return new(hubsArgs) },
	"find_broken_links": func() any { return new(brokenArgs) }, "wiki_status": func() any { return new(statusArgs) },
	"note_history": func() any { return new(historyArgs) }, "diff_versions": func() any { return new(diffArgs) },
	"blame_note": func() any { return new(blameArgs) }, "activity_log": func() any { return new(activityArgs) },
	"restore_note": func() any { return new(restoreArgs) }, "revert_change": func() any { return new(revertArgs) },
}

// Kinds no tool uses, decoded all the same.
type (
	fuzzItem struct {
		Op    string `json:"op"`
		Count int8   `json:"count"`
	}
	fuzzEmbedded struct {
		Deep  uint16 `json:"deep"`
		Shade string
	}
	fuzzArgs struct {
		I8    int8                `json:"i8"`
		U     uint                `json:"u"`
		F32   float32             `json:"f32"`
		Ptr   *int                `json:"ptr"`
		PPtr  **string            `json:"pptr"`
		Ints  map[string]int16    `json:"ints"`
		Items map[string]fuzzItem `json:"items"`
		List  []*fuzzItem         `json:"list"`
		Any   any                 `json:"any"`
		Obj   map[string]any      `json:"obj"`
		Arr   []any               `json:"arr"`
		Raw   json.RawMessage     `json:"raw"`
		Num   json.Number         `json:"num"`
		Bytes []byte              `json:"bytes"`
		Time  time.Time           `json:"time"`
		Addr  netip.Addr          `json:"addr"`
		Pair  [2]int              `json:"pair"`
		Skip  string              `json:"-"`
		fuzzEmbedded
	}
	// fuzzOddArgs has what encoding/json decodes whole.
	fuzzOddArgs struct {
		Quoted int `json:"quoted,string"`
		*fuzzItem
	}
)

type argCase struct {
	name string
	in   *schema
	at   string
	new  func() any
}

func argCases(tb testing.TB) []argCase {
	tb.Helper()
	var cases []argCase
	for _, t := range allTools() {
		mk := argTypes[t.name]
		if mk == nil {
			tb.Fatalf("argTypes lacks %s", t.name)
		}
		cases = append(cases, argCase{t.name, t.input, "", mk})
	}
	for name, st := range stepTools() {
		cases = append(cases, argCase{"apply_changes " + name, st.input, "changes[1].arguments", func() any { return st.args() }})
	}
	typed := &schema{Type: "object", Open: true, Props: []prop{
		opt("i8", integer("", -300, 300)),
		opt("u", integer("", -5, 1e20)),
		opt("f32", &schema{Type: "number"}),
		opt("ptr", &schema{Type: "integer", Nullable: true}),
		opt("pptr", &schema{Type: "string", Nullable: true}),
		opt("ints", &schema{Type: "object", Open: true, Values: integer("", -1e6, 1e6)}),
		opt("list", arrayOf("", object("", opt("op", str("")), opt("count", integer("", -1000, 1000))))),
		opt("num", str("")),
		opt("any", &schema{}),
	}}
	return append(cases,
		argCase{"fuzz open", openObject(""), "", func() any { return new(fuzzArgs) }},
		argCase{"fuzz typed", typed, "", func() any { return new(fuzzArgs) }},
		argCase{"fuzz typed nested", typed, "changes[0].arguments", func() any { return new(fuzzArgs) }},
		argCase{"fuzz odd", openObject(""), "", func() any { return new(fuzzOddArgs) }},
		argCase{"fuzz map", &schema{Type: "object", Open: true, Values: &schema{Type: "number"}}, "", func() any { return new(map[string]int) }},
	)
}

// decodeArgsJSON is decodeArgsAt the long way: check the arguments, then
// encode the checked value and decode that with encoding/json.
func decodeArgsJSON(raw []byte, s *schema, dst any, at string) (err error) {
	defer func() {
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = argHint(s, at)
		}
	}()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return argError(at, "arguments are not valid JSON: %v", err)
	}
	if v, err = (&decoder{root: at}).validate(s, v, reflect.Value{}); err != nil {
		return err
	}
	if raw, err = json.Marshal(v); err != nil {
		return argError(at, "%v", err)
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return argError(join(at, te.Field), "cannot hold %s", te.Value)
		}
		return argError(at, "%v", err)
	}
	return nil
}

// checkDecodeArgs checks that decodeArgsAt decodes raw as decodeArgsJSON
// does: the same value, or the same error.
func checkDecodeArgs(t *testing.T, c argCase, raw []byte) {
	t.Helper()
	got, want := c.new(), c.new()
	gotErr := decodeArgsAt(raw, c.in, got, c.at)
	wantErr := decodeArgsJSON(raw, c.in, want, c.at)
	if !reflect.DeepEqual(gotErr, wantErr) {
		t.Fatalf("%s %s:\nerror %#v\nwant  %#v", c.name, raw, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %s:\ngot  %+v\nwant %+v", c.name, raw, got, want)
	}
}

var decodeSeeds = []string{
	`{}`, `null`, `[1]`, `{"path":"a","limit":3.0,"edits":[{"op":"append","content":"x","expected_matches":2}]}`,
	`{"path":"p","title":null,"tags":["a"],"properties":{"k":[1,{"a":null}],"n":1.50},"expected_version":"v"}`,
	`{"changes":[{"tool":"edit_note","arguments":{"path":"a","edits":[{"op":"append","content":"<&>"}]}}]}`,
	`{"query":"q","tags":[],"limit":1e1,"sort":"title"}`, `{"names":["a"],"threshold":0.5}`,
	`{"i8":300}`, `{"u":-1}`, `{"f32":1e39}`, `{"ptr":null,"pptr":"s"}`, `{"ptr":2,"pptr":null}`,
	`{"ints":{"b":70000,"a":2.0}}`, `{"items":{"a":{"op":"o","count":1.5}}}`, `{"list":[null,{"op":"x","count":200}]}`,
	`{"any":{"x":[1,2.5]},"obj":{"k":true},"arr":[null]}`, `{"raw":{"b":1,"a":"<"}}`, `{"raw":null}`,
	`{"num":"12e3"}`, `{"num":"0x1"}`, `{"bytes":"aGk="}`, `{"time":"2024-01-02T03:04:05Z"}`, `{"time":5}`,
	`{"addr":"::1"}`, `{"addr":"x","i8":300}`, `{"Deep":70000,"addr":"x"}`, `{"addr":"x","time":5}`, `{"addr":1}`,
	`{"pair":[1,2,3]}`, `{"Shade":"s","SHADE":"t","deep":70000}`, `{"hidden":1}`, `{"-":"d"}`,
	`{"obj":[],"arr":{}}`, `{"list":"x","i8":"1"}`, `{"quoted":"12"}`, `{"op":"x","count":3}`, `{"a":1,"b":2.5,"c":-0}`,
}

func TestDecodeArgs_asEncodingJSON(t *testing.T) {
	for _, c := range argCases(t) {
		t.Run(c.name, func(t *testing.T) {
			for _, seed := range decodeSeeds {
				checkDecodeArgs(t, c, []byte(seed))
			}
		})
	}
}

// FuzzDecodeArgs checks that decoding arguments while checking them gives
// what the long way, through encoding/json, gives: every tool's arguments
// and kinds the tools do not use.
func FuzzDecodeArgs(f *testing.F) {
	cases := argCases(f)
	for i, seed := range decodeSeeds {
		f.Add(uint8(i), []byte(seed))
	}
	for i := range cases {
		f.Add(uint8(i), []byte(decodeSeeds[i%len(decodeSeeds)]))
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		checkDecodeArgs(t, cases[int(which)%len(cases)], raw)
	})
}

func TestPlanOf(t *testing.T) {
	tests := []struct {
		t    reflect.Type
		kind storeKind
	}{
		{reflect.TypeFor[editArgs](), storeStruct}, {reflect.TypeFor[json.RawMessage](), storeUnmarshaler},
		{reflect.TypeFor[time.Time](), storeUnmarshaler}, {reflect.TypeFor[map[string]any](), storeShared},
		{reflect.TypeFor[map[string]int](), storeMap}, {reflect.TypeFor[[]byte](), storeJSON},
		{reflect.TypeFor[fuzzOddArgs](), storeJSON}, {reflect.TypeFor[[2]int](), storeJSON},
		{reflect.TypeFor[*int](), storePointer}, {reflect.TypeFor[fmt.Stringer](), storeJSON},
		{reflect.TypeFor[any](), storeAny}, {reflect.TypeFor[[]note.Edit](), storeSlice},
	}
	for _, tt := range tests {
		if got := planOf(tt.t).kind; got != tt.kind {
			t.Errorf("%v: kind %d, want %d", tt.t, got, tt.kind)
		}
	}
	p := planOf(reflect.TypeFor[dailyArgs]())
	if f := p.field("DRY_RUN"); f == nil || f.name != "dry_run" || fmt.Sprint(f.context) != "[mutationArgs dry_run]" {
		t.Errorf("dailyArgs dry_run: %+v", f)
	}
}
