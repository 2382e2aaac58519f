package wiki_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkWiki_CompleteNotes completes a note path prefix at 10,000 notes
// and 2,000 commits: "cached", with the notes ranked for HEAD already, as
// while a person types; "after a write", the first completion after a
// commit, which ranks the notes anew.
func BenchmarkWiki_CompleteNotes(b *testing.B) {
	dir, file := benchRepo(b)
	w := openBenchWiki(b, dir, true)
	ctx := context.Background()
	prefix := file[:strings.LastIndexByte(file, '/')+3]
	if _, err := w.CompleteNotes(ctx, prefix, 0); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if c, err := w.CompleteNotes(ctx, prefix, 0); err != nil || len(c.Values) == 0 {
				b.Fatal(c, err)
			}
		}
	})
	b.Run("after a write", func(b *testing.B) {
		var d durations
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			if _, err := w.Write(ctx, wiki.WriteRequest{Path: fmt.Sprintf("bench/complete-%d", i), Content: "# x\n"}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			d.time(func() {
				if _, err := w.CompleteNotes(ctx, prefix, 0); err != nil {
					b.Fatal(err)
				}
			})
		}
		d.report(b)
	})
}
