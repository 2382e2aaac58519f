package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
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

// argCase is a schema and the Go value its arguments decode into.
type argCase struct {
	name string
	in   *tool.Schema
	at   string
	new  func() any
}

// argCases are every tool's arguments, and those of apply_changes' steps.
func argCases(tb testing.TB) []argCase {
	tb.Helper()
	var cases []argCase
	for _, t := range allTools() {
		mk := argTypes[t.Name]
		if mk == nil {
			tb.Fatalf("argTypes lacks %s", t.Name)
		}
		cases = append(cases, argCase{t.Name, t.Input, "", mk})
	}
	for name, st := range stepTools() {
		cases = append(cases, argCase{"apply_changes " + name, st.input, "changes[1].arguments", func() any { return st.args() }})
	}
	return cases
}

// decodeArgsJSON is tool.DecodeArgsAt the long way: check the arguments,
// then encode the checked value and decode that with encoding/json.
func decodeArgsJSON(raw []byte, s *tool.Schema, dst any, at string) error {
	v, err := tool.Checked(raw, s, at)
	if err != nil {
		return err
	}
	if raw, err = json.Marshal(v); err != nil {
		return tool.ArgError(at, "%v", err).WithHint(tool.ArgHint(s, at))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if at != "" {
				field = at + "." + field
			}
			return tool.ArgError(field, "cannot hold %s", te.Value).WithHint(tool.ArgHint(s, at))
		}
		return tool.ArgError(at, "%v", err).WithHint(tool.ArgHint(s, at))
	}
	return nil
}

// checkDecodeArgs checks that tool.DecodeArgsAt decodes raw as
// decodeArgsJSON does: the same value, or the same error.
func checkDecodeArgs(t *testing.T, c argCase, raw []byte) {
	t.Helper()
	got, want := c.new(), c.new()
	gotErr := tool.DecodeArgsAt(raw, c.in, got, c.at)
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
	`{"path":"p","op":"x","count":3}`, `{"a":1,"b":2.5,"c":-0}`, `{"hidden":1}`,
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

// FuzzDecodeArgs checks that decoding every tool's arguments while
// checking them gives what the long way, through encoding/json, gives.
func FuzzDecodeArgs(f *testing.F) {
	cases := argCases(f)
	for i := range cases {
		f.Add(uint8(i), []byte(decodeSeeds[i%len(decodeSeeds)]))
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		checkDecodeArgs(t, cases[int(which)%len(cases)], raw)
	})
}

// TestWords checks that the tools have words for every reference the
// core writes.
func TestWords(t *testing.T) {
	if missing := words.Missing(); len(missing) > 0 {
		t.Errorf("no words for %v", missing)
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
	out := readNoteTool().Output
	b.Run("schema", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tool.EncodeStructured(r, out, words); err != nil {
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

// TestEditArgs_request: edit_note's edits, decoded into the tools' own
// type, reach the wiki as the note model's edits, every field kept.
func TestEditArgs_request(t *testing.T) {
	raw := `{"path":"a","edits":[{"op":"replace","find":"x","content":"y","expected_matches":2},{"op":"append_section","section":"Log","content":"z"}]}`
	var a editArgs
	if err := tool.DecodeArgs([]byte(raw), editNoteInput(), &a); err != nil {
		t.Fatal(err)
	}
	got := a.request(wiki.Caller{}).Edits
	want := []note.Edit{{Op: note.OpReplace, Find: "x", Content: "y", ExpectedMatches: 2}, {Op: note.OpAppendSection, Section: "Log", Content: "z"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("edits %+v, want %+v", got, want)
	}
}
