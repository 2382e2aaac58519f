package note

import (
	"testing"
	"time"
)

func BenchmarkParseFrontmatter(b *testing.B) {
	src := []byte(metaRich)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parseFrontmatter(src, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUpdateMetadata(b *testing.B) {
	src := []byte(metaRich)
	changes := map[string]MetaChange{
		"title":    {Title: ptr("New title")},
		"add_tag":  {AddTags: []string{"delta"}},
		"set_list": {Set: map[string]any{"status": []any{"a", "b"}}},
		"new_note": {Title: ptr("New title")},
	}
	for name, ch := range changes {
		in := src
		if name == "new_note" {
			in = []byte("# Body\n\nText.\n")
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := UpdateMetadata(in, ch); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
