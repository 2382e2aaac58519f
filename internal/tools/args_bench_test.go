package tools

import (
	"testing"

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
