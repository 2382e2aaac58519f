package tool

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
	in   *Schema
	at   string
	new  func() any
}

func argCases(tb testing.TB) []argCase {
	tb.Helper()
	var cases []argCase
	typed := &Schema{Type: "object", Open: true, Props: []Prop{
		Opt("i8", Integer("", -300, 300)),
		Opt("u", Integer("", -5, 1e20)),
		Opt("f32", &Schema{Type: "number"}),
		Opt("ptr", &Schema{Type: "integer", Nullable: true}),
		Opt("pptr", &Schema{Type: "string", Nullable: true}),
		Opt("ints", &Schema{Type: "object", Open: true, Values: Integer("", -1e6, 1e6)}),
		Opt("list", ArrayOf("", Object("", Opt("op", Str("")), Opt("count", Integer("", -1000, 1000))))),
		Opt("num", Str("")),
		Opt("any", &Schema{}),
	}}
	return append(cases,
		argCase{"fuzz open", OpenObject(""), "", func() any { return new(fuzzArgs) }},
		argCase{"fuzz typed", typed, "", func() any { return new(fuzzArgs) }},
		argCase{"fuzz typed nested", typed, "changes[0].arguments", func() any { return new(fuzzArgs) }},
		argCase{"fuzz odd", OpenObject(""), "", func() any { return new(fuzzOddArgs) }},
		argCase{"fuzz map", &Schema{Type: "object", Open: true, Values: &Schema{Type: "number"}}, "", func() any { return new(map[string]int) }},
	)
}

// decodeArgsJSON is decodeArgsAt the long way: check the arguments, then
// encode the checked value and decode that with encoding/json.
func decodeArgsJSON(raw []byte, s *Schema, dst any, at string) (err error) {
	defer func() {
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = ArgHint(s, at)
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
		return ArgError(at, "arguments are not valid JSON: %v", err)
	}
	if v, err = (&decoder{root: at}).validate(s, v, reflect.Value{}); err != nil {
		return err
	}
	if raw, err = json.Marshal(v); err != nil {
		return ArgError(at, "%v", err)
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return ArgError(join(at, te.Field), "cannot hold %s", te.Value)
		}
		return ArgError(at, "%v", err)
	}
	return nil
}

// checkDecodeArgs checks that decodeArgsAt decodes raw as decodeArgsJSON
// does: the same value, or the same error.
func checkDecodeArgs(t *testing.T, c argCase, raw []byte) {
	t.Helper()
	got, want := c.new(), c.new()
	gotErr := DecodeArgsAt(raw, c.in, got, c.at)
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
// what the long way, through encoding/json, gives, for kinds the tools do
// not use; package tools fuzzes every tool's arguments.
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
		{reflect.TypeFor[fuzzArgs](), storeStruct}, {reflect.TypeFor[json.RawMessage](), storeUnmarshaler},
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
	type inner struct {
		DryRun bool `json:"dry_run"`
	}
	type outer struct {
		Op string `json:"op"`
		inner
	}
	p := planOf(reflect.TypeFor[outer]())
	if f := p.field("DRY_RUN"); f == nil || f.name != "dry_run" || fmt.Sprint(f.context) != "[inner dry_run]" {
		t.Errorf("outer dry_run: %+v", f)
	}
}
