package tools

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/wikid/wikid/internal/tool"
)

// benchmarkdecodeArgs measures checking and decoding the arguments of a
// call, as a client sends them.
func BenchmarkDecodeArgs(b *testing.B) {
	b.Run("edit_note", func(b *testing.B) {
		in := editNoteInput()
		raw := []byte(`{"path":"projects/alpha/plan","expected_version":"4b825dc642cb6eb9a060e54bf8d69288fbee4904",` +
			`"message":"Plan: new milestones","edits":[` +
			`{"op":"append","content":"\n- [ ] ship the beta\n"},` +
			`{"op":"replace","find":"status: draft","content":"status: review","expected_matches":1},` +
			`{"op":"replace_section","section":"Milestones","content":"1. Alpha, March\n2. Beta, June\n3. Release, September\n"},` +
			`{"op":"insert_after","section":"Risks","content":"## Open questions\n\nWho owns the migration?\n"},` +
			`{"op":"prepend","content":"> Reviewed in the weekly meeting.\n"}]}`)
		b.ReportAllocs()
		for b.Loop() {
			var a editArgs
			if err := tool.DecodeArgs(raw, in, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("search_notes", func(b *testing.B) {
		in := searchNotesTool().Input
		raw := []byte(`{"query":"release plan tag:project -status:done","tags":["project","q3"],` +
			`"folder":"projects","sort":"modified","limit":20}`)
		b.ReportAllocs()
		for b.Loop() {
			var a searchArgs
			if err := tool.DecodeArgs(raw, in, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeArgs_JSONSchemaLibrary does the same work as DecodeArgs
// by way of google/jsonschema-go, the maintained JSON-Schema library in
// the module graph: the arguments parsed into any, validated against the
// tool's schema (resolved once), then decoded into the tool's struct. It
// is the baseline DecodeArgs is measured against.
func BenchmarkDecodeArgs_JSONSchemaLibrary(b *testing.B) {
	raw := []byte(`{"path":"projects/alpha/plan","expected_version":"4b825dc642cb6eb9a060e54bf8d69288fbee4904",` +
		`"message":"Plan: new milestones","edits":[` +
		`{"op":"append","content":"\n- [ ] ship the beta\n"},` +
		`{"op":"replace","find":"status: draft","content":"status: review","expected_matches":1},` +
		`{"op":"replace_section","section":"Milestones","content":"1. Alpha, March\n2. Beta, June\n3. Release, September\n"},` +
		`{"op":"insert_after","section":"Risks","content":"## Open questions\n\nWho owns the migration?\n"},` +
		`{"op":"prepend","content":"> Reviewed in the weekly meeting.\n"}]}`)
	wire, err := json.Marshal(editNoteInput())
	if err != nil {
		b.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(wire, &s); err != nil {
		b.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			b.Fatal(err)
		}
		if err := resolved.Validate(v); err != nil {
			b.Fatal(err)
		}
		var a editArgs
		if err := json.Unmarshal(raw, &a); err != nil {
			b.Fatal(err)
		}
	}
}
