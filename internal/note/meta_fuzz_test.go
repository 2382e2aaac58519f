package note

import (
	"bytes"
	"errors"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wikierr"
)

// metaFuzzChange builds a change from fuzz inputs; each bit of mode adds
// one field, so that conflicting fields are tried too.
func metaFuzzChange(title, tag, key, value string, mode uint8) MetaChange {
	var ch MetaChange
	if mode&1 != 0 {
		ch.Title = &title
	}
	if mode&2 != 0 {
		ch.AddTags = []string{tag, "fuzz"}
	}
	if mode&4 != 0 {
		ch.RemoveTags = []string{tag}
	}
	if mode&8 != 0 {
		ch.Tags = []string{tag}
	}
	if mode&16 != 0 {
		ch.Set = map[string]any{key: value}
	}
	if mode&32 != 0 {
		ch.Set = map[string]any{key + "2": []any{value, 1.5, map[string]any{value: true}}}
	}
	if mode&64 != 0 {
		ch.Unset = []string{key}
	}
	if mode&128 != 0 {
		ch.Aliases = []string{value}
	}
	return ch
}

func FuzzUpdateMetadata(f *testing.F) {
	for i, s := range append(append(fmFuzzSeeds, metaPropertyDocs...), metaRich) {
		f.Add([]byte(s), "New: title", "#Tag", "status", "2024-06-01", uint8(i*37))
	}
	f.Add([]byte("---\ntags:\n  - a\n  - b\n---\n"), "", "A", "tags", "x", uint8(4))
	f.Add([]byte("---\ntags: a b\n---\n"), "", "c", "k", "'", uint8(2|16))
	f.Add([]byte("\ufeff# T\nbody\n"), "", "c", "k", "v", uint8(2))
	f.Add([]byte("---\ntags: !!set {a, b}\n---\n"), "", "c", "k", "v", uint8(2|4))
	f.Add([]byte("---\nx: |+\n  a\n\n# c\n---\n"), "", "c", "x", "line\nline", uint8(16|128))
	f.Fuzz(func(t *testing.T, src []byte, title, tag, key, value string, mode uint8) {
		ch := metaFuzzChange(title, tag, key, value, mode)
		out, err := UpdateMetadata(src, ch)
		if err != nil {
			var e *wikierr.Error
			if !errors.As(err, &e) || e.Code != wikierr.CodeInvalidParams {
				t.Fatalf("UpdateMetadata(%q, %+v): %v", src, ch, err)
			}
			return
		}
		if bytes.Equal(out, src) {
			return
		}
		before, _ := parseFrontmatter(src, time.UTC)
		after, err := parseFrontmatter(out, time.UTC)
		if err != nil || after == nil {
			t.Fatalf("result does not parse (%v):\n%q", err, out)
		}
		bodyStart := 0
		switch {
		case before != nil:
			bodyStart = before.End
		case bytes.HasPrefix(src, fmBOM):
			bodyStart = len(fmBOM)
		}
		if !bytes.Equal(out[after.End:], src[bodyStart:]) {
			t.Fatalf("body changed:\n%q\nwant\n%q", out[after.End:], src[bodyStart:])
		}
		if utf8.Valid(src) && utf8.ValidString(title+tag+key+value) && !utf8.Valid(out) {
			t.Fatalf("invalid UTF-8 out of valid input:\n%q", out)
		}
	})
}
