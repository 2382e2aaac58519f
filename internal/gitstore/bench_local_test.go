package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkLocalChanges scans the checkout of a 10,000-note wiki for
// uncommitted notes, as wiki_status does: clean, and with 10,000 untracked
// notes beside the tracked ones. It also times CheckoutChange of one note,
// as a read at HEAD does.
func BenchmarkLocalChanges(b *testing.B) {
	ctx := context.Background()
	dir, picks := benchRepo(b)
	s := openStore(b, dir)
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	isMarkdown := func(p string) bool { return strings.HasSuffix(p, ".md") }
	scan := func(b *testing.B, wantUntracked int) {
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			lc, err := s.LocalChanges(ctx, head.Commit, isMarkdown, 5)
			times = append(times, time.Since(start))
			if err != nil || lc.Modified != 0 || lc.Untracked != wantUntracked || lc.Partial {
				b.Fatalf("%+v, %v", lc, err)
			}
		}
		reportMedian(b, times)
	}
	b.Run("clean", func(b *testing.B) { scan(b, 0) })
	b.Run("one note", func(b *testing.B) {
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			reason, err := s.CheckoutChange(ctx, head.Commit, picks[1])
			times = append(times, time.Since(start))
			if err != nil || reason != "" {
				b.Fatalf("%q, %v", reason, err)
			}
		}
		reportMedian(b, times)
	})
	for i := range 10000 {
		name := filepath.Join(dir, "untracked", fmt.Sprintf("d%02d", i%100), fmt.Sprintf("n%d.md", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte("# untracked\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("10000 untracked", func(b *testing.B) { scan(b, 10000) })
}
