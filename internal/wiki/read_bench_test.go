package wiki_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkWiki_Read reads one note at HEAD of the generated 10,000-note,
// 2,000-commit wiki, with its last commit and git dates from the history
// index and the comparison with the checked-out file.
func BenchmarkWiki_Read(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 2000)
	file := gitLines(b, dir, "ls-files", "projects")[0]
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := wiki.Open(ctx, deps(b, store, logger, nil), wiki.Options{Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(ctx) })
	if _, err := w.RecentChanges(ctx, wiki.RecentRequest{}); err != nil { // builds the history index
		b.Fatal(err)
	}
	p, _, _ := note.SplitFileName(file)
	for b.Loop() {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: p})
		if err != nil || r.Commit == "" || r.Modified == nil {
			b.Fatalf("%+v, %v", r, err)
		}
	}
}
