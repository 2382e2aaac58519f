package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/staticembed"
	"github.com/wikid/wikid/internal/wiki"
)

// semanticQueries are what the benchmark asks, in turn.
var semanticQueries = []string{
	"onboarding the new designer", "recipe for dinner", "vacation itinerary", "budget and expenses",
	"incident with the servers", "garden in spring", "marathon training", "meeting agenda",
}

// BenchmarkSemantic measures search by meaning through MCP over HTTP on a
// generated wiki of 10,000 notes (and 100,000 with WIKID_BENCH_100K=1),
// embedded at 384 dimensions by the test endpoint on loopback: the time
// to embed the wiki (the endpoint's own time included, which a real model
// makes longer), the vectors' size on disk, the heap of the whole wiki,
// and the latency of semantic and hybrid searches. Queries repeat, so
// their vectors come from the cache; new-query adds one request to the
// endpoint.
func BenchmarkSemantic(b *testing.B) {
	sizes := []int{10000}
	if os.Getenv("WIKID_BENCH_100K") != "" {
		sizes = append(sizes, 100000)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			srv := embedtest.Start()
			defer srv.Close()
			dir := b.TempDir()
			gittest.Generate(b, dir, n, 2000)
			files := strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
			notePath := strings.TrimSuffix(files[len(files)/2], ".md")
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			w := openSemanticWiki(b, dir, srv.URL, 384)
			st := waitEmbedded(b, w)
			took := time.Since(start)
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			fi, err := os.Stat(filepath.Join(dir, ".git", "wikid", "semantic", "vectors"))
			if err != nil {
				b.Fatal(err)
			}
			url := serveHTTP(b, w, mcpserver.Options{}, mcpserver.HTTPOptions{Token: "bench"})
			s := newSession(b, connectHTTP(b, url, map[string]string{"Authorization": "Bearer bench"}, ""))
			for _, mode := range []string{"semantic", "hybrid"} {
				b.Run(mode, func(b *testing.B) {
					benchCall(b, s, "search_notes", func(i int) map[string]any {
						return map[string]any{"query": semanticQueries[i%len(semanticQueries)], "mode": mode}
					})
				})
			}
			b.Run("new-query", func(b *testing.B) {
				benchCall(b, s, "search_notes", func(i int) map[string]any {
					return map[string]any{"query": fmt.Sprintf("notes about budget %d", i), "mode": "semantic"}
				})
			})
			b.Run("related", func(b *testing.B) {
				benchCall(b, s, "related_notes", func(int) map[string]any { return map[string]any{"path": notePath} })
			})
			// A restart embeds nothing: the semantic index opens at the
			// commit it closed at. Measured: from opening the wiki to the
			// first semantic search's answer.
			w.Close(context.Background())
			inputs := srv.Inputs()
			start = time.Now()
			w = openSemanticWiki(b, dir, srv.URL, 384)
			if _, err := w.Search(context.Background(), wiki.SearchParams{Query: semanticQueries[0], Mode: wiki.SearchSemantic}); err != nil {
				b.Fatal(err)
			}
			reopen := time.Since(start)
			waitEmbedded(b, w)
			if n := srv.Inputs() - inputs; n != 1 { // the query
				b.Fatalf("a restart embedded %d texts besides the query", n-1)
			}
			b.Run("build", func(b *testing.B) {
				b.ReportMetric(reopen.Seconds(), "restart-to-answer-s")
				b.ReportMetric(took.Seconds(), "embed-all-s")
				b.ReportMetric(float64(st.Chunks), "chunks")
				b.ReportMetric(float64(fi.Size())/(1<<20), "vectors-MiB")
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "heap-MiB")
			})
		})
	}
}

// BenchmarkSemantic_Builtin measures the built-in model on the generated
// wiki of 10,000 notes: the time from opening it to having embedded it
// all (every other index is built meanwhile, on the same two cores), and
// semantic searches through MCP over HTTP, each a new query.
func BenchmarkSemantic_Builtin(b *testing.B) {
	if !staticembed.Available() {
		b.Skip("the built-in model is not built: run make model")
	}
	dir := b.TempDir()
	gittest.Generate(b, dir, 10000, 2000)
	start := time.Now() // the search index and the history are built meanwhile
	w := openWikiEmbedding(b, dir, nil, staticembed.Lazy{})
	st := waitEmbedded(b, w)
	took := time.Since(start)
	url := serveHTTP(b, w, mcpserver.Options{}, mcpserver.HTTPOptions{Token: "bench"})
	s := newSession(b, connectHTTP(b, url, map[string]string{"Authorization": "Bearer bench"}, ""))
	b.Run("semantic", func(b *testing.B) {
		benchCall(b, s, "search_notes", func(i int) map[string]any {
			return map[string]any{"query": fmt.Sprintf("%s %d", semanticQueries[i%len(semanticQueries)], i), "mode": "semantic"}
		})
	})
	b.Run("hybrid", func(b *testing.B) {
		benchCall(b, s, "search_notes", func(i int) map[string]any {
			return map[string]any{"query": fmt.Sprintf("%s %d", semanticQueries[i%len(semanticQueries)], i), "mode": "hybrid"}
		})
	})
	b.Run("build", func(b *testing.B) {
		b.ReportMetric(took.Seconds(), "embed-all-s")
		b.ReportMetric(float64(st.Chunks), "chunks")
	})
}

// openSemanticWiki opens the wiki at dir with every index, semantic search
// embedding through url at dims dimensions.
func openSemanticWiki(tb testing.TB, dir, url string, dims int) *wiki.Wiki {
	tb.Helper()
	client, err := embed.New(embed.Options{BaseURL: url, Model: "topics", Dimensions: dims})
	if err != nil {
		tb.Fatal(err)
	}
	return openWikiEmbedding(tb, dir, nil, client)
}

// waitEmbedded waits until every derived store holds HEAD and every chunk
// is embedded.
func waitEmbedded(tb testing.TB, w *wiki.Wiki) wiki.SemanticState {
	tb.Helper()
	if err := w.CatchUp(context.Background()); err != nil {
		tb.Fatal(err)
	}
	for {
		st, _ := w.SemanticState()
		if st.Error != "" {
			tb.Fatal(st.Error)
		}
		if st.Pending == 0 {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
}
