package index

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/wiki"
)

// headWords head the generated vocabulary, so that the most frequent
// words look like English; the rest are made-up words.
var headWords = strings.Fields(`the of and to in is that for it as with was on be by this
are from at or have an not but which they we all can has more one their
will about if there so what when up out into time some could them than only
other new also its these two may then first any like our over such how most
project meeting search index note notes wiki link links plan review design
team client server data model context protocol tool query result version
release test build deploy issue idea draft summary decision action question`)

// corpus generates n realistic notes from a fixed seed: Zipf-distributed
// words, a few hundred tags (many nested), folders up to three deep,
// properties, links and dates over three years.
type corpus struct {
	vocab   []string
	tags    []string
	folders []string
	docs    []wiki.Document
	// dates are git's dates of every note; nine notes in ten have no
	// dates in their frontmatter, as in most vaults.
	dates wiki.GitDates
}

func newCorpus(n int) *corpus {
	r := rand.New(rand.NewPCG(1, 2))
	c := &corpus{dates: wiki.GitDates{}}
	seen := map[string]bool{}
	for _, w := range headWords {
		seen[w] = true
		c.vocab = append(c.vocab, w)
	}
	syllables := strings.Fields("ka lo mi ne ru sa te vi po da fe gu ha ji ko lu ma ni or pe qui ra si tu ve wa xo yu ze an el in on un ar er ir")
	for len(c.vocab) < 20000 {
		var b strings.Builder
		for range 2 + r.IntN(3) {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			c.vocab = append(c.vocab, w)
		}
	}
	zipf := rand.NewZipf(r, 1.07, 2, uint64(len(c.vocab)-1))
	word := func() string { return c.vocab[zipf.Uint64()] }

	for i := range 60 {
		c.tags = append(c.tags, fmt.Sprintf("topic%02d", i))
	}
	for i := range 20 {
		for j := range 8 {
			c.tags = append(c.tags, fmt.Sprintf("project/p%02d/t%d", i, j))
		}
	}
	top := []string{"projects", "areas", "resources", "archive", "journal", "people", "meetings", "inbox"}
	for _, t := range top {
		c.folders = append(c.folders, t)
		for i := range 6 {
			sub := fmt.Sprintf("%s/s%d", t, i)
			c.folders = append(c.folders, sub)
			for j := range 3 {
				c.folders = append(c.folders, fmt.Sprintf("%s/d%d", sub, j))
			}
		}
	}
	start := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)
	statuses := []string{"draft", "active", "done", "archived"}
	types := []string{"note", "meeting", "person", "project", "reference"}
	for i := range n {
		var title []string
		for range 2 + r.IntN(4) {
			title = append(title, word())
		}
		var body strings.Builder
		body.WriteString("# " + strings.Join(title, " ") + "\n\n")
		for p := range 2 + r.IntN(8) {
			if p > 0 && r.IntN(3) == 0 {
				body.WriteString("## " + word() + " " + word() + "\n\n")
			}
			for range 1 + r.IntN(5) {
				n := 6 + r.IntN(18)
				for k := range n {
					if k > 0 {
						body.WriteByte(' ')
					}
					body.WriteString(word())
				}
				body.WriteString(".\n")
			}
			body.WriteByte('\n')
		}
		var tags []string
		for range r.IntN(5) {
			tags = append(tags, c.tags[r.IntN(len(c.tags))])
		}
		created := start.Add(time.Duration(r.Int64N(int64(3 * 365 * 24 * time.Hour))))
		d := wiki.Document{
			Path:     fmt.Sprintf("%s/%s-%05d", c.folders[r.IntN(len(c.folders))], title[0], i),
			Title:    strings.Join(title, " "),
			Body:     body.String(),
			BodyLine: 5,
			Tags:     tags,
			Properties: map[string][]string{
				"status": {statuses[r.IntN(len(statuses))]},
				"type":   {types[r.IntN(len(types))]},
			},
			Created:  created,
			Modified: created.Add(time.Duration(r.Int64N(int64(90 * 24 * time.Hour)))),
			Version:  fmt.Sprintf("%040x", i),
		}
		d.File = d.Path + ".md"
		c.dates[d.Path] = wiki.GitDate{Created: d.Created, Modified: d.Modified}
		if i%10 != 0 {
			d.Created, d.Modified = time.Time{}, time.Time{}
		}
		if r.IntN(4) == 0 {
			d.Aliases = []string{word() + " " + word()}
		}
		c.docs = append(c.docs, d)
	}
	for i := range c.docs {
		for range r.IntN(8) {
			c.docs[i].Links = append(c.docs[i].Links, c.docs[r.IntN(n)].Path)
		}
	}
	return c
}

// build applies the corpus in batches of 500, as a rebuild does.
func (c *corpus) build(tb testing.TB, x *Index) { c.buildBatches(tb, x, 500) }

func (c *corpus) buildBatches(tb testing.TB, x *Index, size int) {
	tb.Helper()
	for i := 0; i < len(c.docs); i += size {
		apply(tb, x, fmt.Sprintf("c%d", i), c.docs[i:min(i+size, len(c.docs))], nil)
	}
}

// corpusVersion names the corpus that newCorpus generates. Bump it when
// the generator changes, so that cached indexes are built again.
const corpusVersion = "2"

// cached returns an open copy of an index of the corpus. Building 100,000
// notes takes about a minute, so the index is built once and kept in the
// system's temporary directory under a name made of the schema and corpus
// versions and the number of notes; each benchmark opens its own copy,
// which it may change.
func (c *corpus) cached(tb testing.TB) *Index {
	tb.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("wikid-bench-index-s%s-c%s-%d", schemaVersion, corpusVersion, len(c.docs))
	dir := filepath.Join(os.TempDir(), name)
	meta := filepath.Join(dir, "index_meta.json")
	if _, err := os.Stat(meta); err != nil {
		tmp, err := os.MkdirTemp(os.TempDir(), name+".tmp")
		if err != nil {
			tb.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		x, err := Open(ctx, filepath.Join(tmp, "index"), Options{})
		if err != nil {
			tb.Fatal(err)
		}
		c.build(tb, x)
		if err := x.Close(ctx); err != nil {
			tb.Fatal(err)
		}
		if err := os.Rename(filepath.Join(tmp, "index"), dir); err != nil {
			// Another run may have put its copy there first.
			if _, serr := os.Stat(meta); serr != nil {
				tb.Fatal(err)
			}
		}
	}
	cp := filepath.Join(tb.TempDir(), "index")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		tb.Fatal(err)
	}
	x, err := Open(ctx, cp, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	if x.Commit() == "" {
		tb.Fatalf("cached index %s is empty", dir)
	}
	tb.Cleanup(func() { _ = x.Close(ctx) })
	return x
}

// dirSize returns the bytes of the files under dir.
func dirSize(tb testing.TB, dir string) int64 {
	tb.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// measure runs op in the benchmark loop and reports its latencies.
func measure(b *testing.B, op func() error) {
	var lat latencies
	for b.Loop() {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	lat.report(b)
}

// latencies records the duration of each operation and reports the
// median and the 99th percentile.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	b.ReportMetric(float64(l[len(l)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(l[len(l)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkIndex_Build10k(b *testing.B) {
	c := newCorpus(10_000)
	for _, size := range []int{500, 10_000} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) { benchBuild(b, c, size) })
	}
}

func BenchmarkIndex_Build100k(b *testing.B) {
	if os.Getenv("WIKID_BENCH_100K") == "" {
		b.Skip("set WIKID_BENCH_100K=1 to build 100,000 notes")
	}
	benchBuild(b, newCorpus(100_000), 500)
}

// benchBuild builds an index of n notes. Besides the wall time it reports
// the CPU time of the process (user and system, all threads), which a busy
// machine inflates less than the wall time.
// It also reports the size on disk once Close has written everything, and
// the peak heap of the process.
func benchBuild(b *testing.B, c *corpus, batch int) {
	var size int64
	var cpu time.Duration
	for b.Loop() {
		x, _ := openTest(b)
		before := cpuTime(b)
		c.buildBatches(b, x, batch)
		cpu += cpuTime(b) - before
		b.StopTimer()
		dir := x.dir
		if err := x.Close(context.Background()); err != nil {
			b.Fatal(err)
		}
		size = dirSize(b, dir)
		b.StartTimer()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(size)/(1<<20), "MiB-on-disk")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "MiB-heap-sys")
}

func BenchmarkIndex_Search10k(b *testing.B) { benchSearch(b, 10_000) }

func BenchmarkIndex_Search100k(b *testing.B) {
	if os.Getenv("WIKID_BENCH_100K") == "" {
		b.Skip("set WIKID_BENCH_100K=1 to search 100,000 notes")
	}
	benchSearch(b, 100_000)
}

func benchSearch(b *testing.B, n int) {
	c := newCorpus(n)
	x := c.cached(b)
	ctx := context.Background()

	// A rare word: one that a handful of notes hold.
	rare := c.vocab[len(c.vocab)/2]
	// A phrase that occurs: two adjacent words of some note's body.
	line := strings.Fields(strings.Split(c.docs[n/3].Body, "\n")[2])
	phrase := fmt.Sprintf("%q", strings.Trim(line[2]+" "+line[3], "."))
	b.Logf("rare word %q, phrase %s", rare, phrase)
	queries := []struct {
		name, query, sort string
		snippets          int // as the command line asks: 3, or none
	}{
		{"common word", "project", "", 3},
		{"common word by modified", "project", "modified", 3},
		{"common word without snippets", "project", "", 0},
		// Quoted, a word matches as written only, as every word did
		// before words found their other forms.
		{"common word as written", `"project"`, "", 3},
		{"rare word", rare, "", 3},
		{"rare word as written", fmt.Sprintf("%q", rare), "", 3},
		{"phrase", phrase, "", 3},
		{"prefix", "pro*", "", 3},
		// Plain words that few notes hold all of: read as a question.
		{"question", "how do we keep the project data " + rare + " in sync", "", 3},
		// The same words, all of them and any of them, for comparison.
		{"question AND", "how AND do AND we AND keep AND the AND project AND data AND " + rare + " AND in AND sync", "", 3},
		{"question OR", "keep OR project OR data OR " + rare + " OR sync", "", 3},
		{"filtered", "data tag:project/p03 folder:projects -tag:topic07", "", 3},
		{"all-negative", "-tag:topic01", "", 3},
		{"everything by modified", "", "modified", 0},
		{"modified in the last half", "modified:>=2023-07-01", "", 0},
		{"common word modified in the last half", "project modified:>=2023-07-01", "", 3},
	}
	for _, q := range queries {
		pq, err := grammar.Parse(q.query, time.UTC)
		if err != nil {
			b.Fatalf("parse %q: %v", q.query, err)
		}
		b.Run(q.name, func(b *testing.B) {
			req := wiki.SearchRequest{Query: pq, Sort: q.sort, Snippets: q.snippets, GitDates: c.dates}
			total := find(b, x, req).Total
			measure(b, func() error { _, err := x.Search(ctx, req); return err })
			b.ReportMetric(float64(total), "hits")
		})
	}
	b.Run("next page", func(b *testing.B) {
		req := wiki.SearchRequest{Query: parse(b, "project"), Snippets: 3}
		req.Cursor = find(b, x, req).NextCursor
		measure(b, func() error { _, err := x.Search(ctx, req); return err })
	})
	for _, tr := range []wiki.TagsRequest{{}, {Folder: "projects"}, {Prefix: "project/p1"}} {
		b.Run(fmt.Sprintf("tags %+v", tr), func(b *testing.B) {
			measure(b, func() error { _, err := x.Tags(ctx, tr); return err })
		})
	}
	b.Run("apply one note", func(b *testing.B) {
		d := c.docs[0]
		var lat latencies
		i := 0
		for b.Loop() {
			d.Body += " edited"
			i++
			t0 := time.Now()
			apply(b, x, fmt.Sprintf("e%d", i), []wiki.Document{d}, nil)
			lat = append(lat, time.Since(t0))
		}
		lat.report(b)
	})
	b.Run("open", func(b *testing.B) {
		dir := x.dir
		if err := x.Close(ctx); err != nil {
			b.Fatal(err)
		}
		var lat latencies
		for b.Loop() {
			t0 := time.Now()
			y, err := Open(ctx, dir, Options{})
			lat = append(lat, time.Since(t0))
			if err != nil {
				b.Fatal(err)
			}
			if y.Commit() == "" {
				b.Fatal("reopened index lost its commit")
			}
			if err := y.Close(ctx); err != nil {
				b.Fatal(err)
			}
		}
		lat.report(b)
	})
}
