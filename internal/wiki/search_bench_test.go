package wiki_test

import (
	"context"
	"io"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/wiki"
)

// searchCases are the searches of the benchmarks, each with the git grep
// arguments that look for the same thing (empty: git grep cannot).
var searchCases = []struct {
	name, query string
	grep        []string
}{
	{"common word", "latency", []string{"-i", "-w", "latency"}},
	{"rare word", "9876", []string{"-w", "9876"}},
	{"phrase", `"cache lock"`, []string{"-i", "-F", "cache lock"}},
	{"word tag folder -tag", "latency tag:project folder:projects -tag:draft", nil},
	{"question", "why did the latency of the cache lock rise after the migration", nil},
}

// indexedBenchWiki opens the generated 10,000-note repository with its
// search index built, and returns the wiki and the checkout.
func indexedBenchWiki(b *testing.B) (*wiki.Wiki, string) {
	ctx := context.Background()
	dir, _ := benchRepo(b)
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w, err := wiki.Open(ctx, deps(b, store, nil, nil), wiki.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(ctx) })
	if err := w.CatchUp(ctx); err != nil {
		b.Fatal(err)
	}
	return w, dir
}

// BenchmarkWiki_Search runs searches with snippets through the wiki on the
// generated 10,000-note repository, index built.
func BenchmarkWiki_Search(b *testing.B) {
	ctx := context.Background()
	w, _ := indexedBenchWiki(b)
	for _, c := range searchCases {
		b.Run(c.name, func(b *testing.B) {
			var d durations
			hits := 0
			for range b.N {
				d.time(func() {
					res, err := w.Search(ctx, wiki.SearchParams{Query: c.query, Snippets: 3})
					if err != nil {
						b.Fatal(err)
					}
					hits = res.Total
				})
			}
			d.report(b)
			b.ReportMetric(float64(hits), "hits")
		})
	}
}

// BenchmarkGitGrep looks for the same words with `git grep -l` in the same
// repository, for comparison.
func BenchmarkGitGrep(b *testing.B) {
	dir, _ := benchRepo(b)
	for _, c := range searchCases {
		if c.grep == nil {
			continue
		}
		b.Run(c.name, func(b *testing.B) {
			var d durations
			for range b.N {
				d.time(func() {
					gittest.TryGit(dir, append([]string{"grep", "-l"}, c.grep...)...)
				})
			}
			d.report(b)
		})
	}
}

// grepCases are the greps of the benchmarks, each with the git grep
// arguments that look for the same lines.
var grepCases = []struct {
	name string
	req  wiki.GrepRequest
	grep []string
}{
	{"common word", wiki.GrepRequest{Pattern: "latency"}, []string{"-i", "-F", "latency"}},
	{"rare word", wiki.GrepRequest{Pattern: "9876"}, []string{"-F", "9876"}},
	{"two words", wiki.GrepRequest{Pattern: "cache lock"}, []string{"-i", "-F", "cache lock"}},
	{"regex", wiki.GrepRequest{Pattern: `cache\s+lock`, Regex: true}, []string{"-i", "-E", `cache\s+lock`}},
	{"unnarrowed", wiki.GrepRequest{Pattern: "9 8"}, []string{"-F", "9 8"}},
}

// BenchmarkWiki_Grep greps through the wiki on the generated 10,000-note
// repository, index built, next to `git grep -n` doing the same in one run.
// "unnarrowed" has no run of three word characters, so it reads every note.
func BenchmarkWiki_Grep(b *testing.B) {
	ctx := context.Background()
	w, dir := indexedBenchWiki(b)
	for _, c := range grepCases {
		b.Run("wikid/"+c.name, func(b *testing.B) {
			var d durations
			lines := 0
			for range b.N {
				d.time(func() {
					req := c.req
					req.Limit = 1_000_000
					res, err := w.Grep(ctx, req)
					if err != nil {
						b.Fatal(err)
					}
					lines = len(res.Matches)
				})
			}
			d.report(b)
			b.ReportMetric(float64(lines), "lines")
		})
		b.Run("git/"+c.name, func(b *testing.B) {
			var d durations
			for range b.N {
				d.time(func() {
					gittest.TryGit(dir, append([]string{"grep", "-n"}, c.grep...)...)
				})
			}
			d.report(b)
		})
	}
}

// BenchmarkWiki_GatherContext answers questions with gather_context's core
// on the generated 10,000-note repository, search index and link graph
// built: a search, about 20 notes read and cut into sections, the links
// between the sections.
func BenchmarkWiki_GatherContext(b *testing.B) {
	ctx := context.Background()
	dir, _ := benchRepo(b)
	w := openWikiWith(b, dir, nil, io.Discard, graph.New())
	if err := w.Reindex(ctx, false, nil); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct{ name, question string }{
		{"two words", "cache latency"},
		{"question", "What was the tradeoff between memory and latency in the cache design review?"},
	} {
		b.Run(q.name, func(b *testing.B) {
			var d durations
			var res *wiki.ContextResult
			for range b.N {
				d.time(func() {
					var err error
					if res, err = w.GatherContext(ctx, wiki.ContextRequest{Question: q.question}); err != nil {
						b.Fatal(err)
					}
				})
			}
			d.report(b)
			b.ReportMetric(float64(len(res.Sections)), "sections")
			b.ReportMetric(float64(res.Tokens), "tokens")
		})
	}
}
