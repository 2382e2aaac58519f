package wiki_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkWiki_FirstBuild opens a wiki over a fresh copy of the generated
// 10,000-note repository (WIKID_BENCH_NOTES sets another number, with a
// fifth as many commits) and waits until its derived stores (history
// index, search index, link graph) are built, reporting when each was.
// A profile of it (-cpuprofile) shows where a first build goes.
func BenchmarkWiki_FirstBuild(b *testing.B) {
	ctx := context.Background()
	notes := benchNotes
	if v, err := strconv.Atoi(os.Getenv("WIKID_BENCH_NOTES")); err == nil && v > 0 {
		notes = v
	}
	var history, index, graph, all float64
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		gittest.Generate(b, dir, notes, notes/5)
		store, err := gitstore.Open(ctx, dir, gitstore.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		w, err := wiki.Open(ctx, deps(b, store, nil, nil), wiki.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var done [3]float64
		for done[0] == 0 || done[1] == 0 || done[2] == 0 {
			time.Sleep(5 * time.Millisecond)
			idx, hist, gr, _, err := w.Derived(ctx)
			if err != nil {
				b.Fatal(err)
			}
			for i, ok := range []bool{hist.CaughtUp, idx.CaughtUp, gr.CaughtUp} {
				if ok && done[i] == 0 {
					done[i] = time.Since(start).Seconds()
				}
			}
		}
		all += time.Since(start).Seconds()
		history, index, graph = history+done[0], index+done[1], graph+done[2]
		b.StopTimer()
		w.Close(ctx)
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(history/n, "s-history")
	b.ReportMetric(index/n, "s-index")
	b.ReportMetric(graph/n, "s-graph")
	b.ReportMetric(all/n, "s-all")
}
