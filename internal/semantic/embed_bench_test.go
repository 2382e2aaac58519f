package semantic_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/encoder/builtin"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/staticembed"
	"github.com/wikid/wikid/internal/wiki"
)

// countingEncoder is the built-in encoder, counting the texts it embeds in
// the background.
type countingEncoder struct {
	builtin.Lazy
	texts atomic.Int64
}

func (c *countingEncoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts.Add(int64(len(texts)))
	return c.Lazy.Embed(ctx, texts)
}

// BenchmarkEmbedVault embeds a vault with the built-in encoder in the
// background, as the daemon does, and reports: the time to embed it all,
// the median latency of a search by meaning while it embeds and once it is
// idle (same run), the texts an edit of one note embeds again, one new
// query, and the heap before opening and once embedded. The vault is
// WIKID_EMBED_VAULT (a repository, copied) or WIKID_EMBED_NOTES generated
// notes (default 1,000). Run it once:
//
//	WIKID_EMBED_NOTES=1000 go test -run '^$' -bench EmbedVault -benchtime 1x -timeout 2h ./internal/semantic
func BenchmarkEmbedVault(b *testing.B) {
	if !staticembed.Available() {
		b.Skip("the word vectors are not built")
	}
	ctx := context.Background()
	dir := b.TempDir()
	if src := os.Getenv("WIKID_EMBED_VAULT"); src != "" {
		gittest.Git(b, dir, "clone", "-q", "--local", src, ".")
	} else {
		notes, _ := strconv.Atoi(os.Getenv("WIKID_EMBED_NOTES"))
		gittest.Generate(b, dir, max(notes, 1000), 1)
	}
	questions := []string{"how do I keep my notes in sync between devices", "where are the settings for the editor",
		"what changed in the latest release", "how can I link one note to another", "can I publish my notes as a website"}
	for b.Loop() {
		heapBefore := heap()
		enc := &countingEncoder{}
		w, sem := openWith(b, dir, enc, semantic.Options{Static: staticembed.Lazy{}, Reads: staticembed.Lazy{}.Reads, Workers: 1, Share: share})
		start := time.Now()
		if err := w.CatchUp(ctx); err != nil {
			b.Fatal(err)
		}
		var during []time.Duration
		for q := 0; sem.State().Pending > 0; q++ {
			during = append(during, search(b, w, fmt.Sprintf("%s %d", questions[q%len(questions)], q)))
			time.Sleep(time.Second)
		}
		took := time.Since(start)
		st := sem.State()
		var idle []time.Duration
		for q := range 10 {
			idle = append(idle, search(b, w, fmt.Sprintf("%s, again %d", questions[q%len(questions)], q)))
		}
		// One note edited: one of its paragraphs.
		files := strings.Split(strings.TrimSpace(gittest.Git(b, dir, "-c", "core.quotePath=false", "ls-files", "*.md")), "\n")
		path := files[len(files)/2]
		if i := slices.IndexFunc(files, func(f string) bool { return strings.HasPrefix(f, "en/") }); i >= 0 {
			path = files[i] // a note the encoder reads, in a vault of many languages
		}
		raw, err := os.ReadFile(dir + "/" + path)
		if err != nil {
			b.Fatal(err)
		}
		before := enc.texts.Load()
		editStart := time.Now()
		gittest.Commit(b, dir, "edit", map[string]string{path: string(raw) + "\nA line added at the end, about something else.\n"})
		if err := w.CatchUp(ctx); err != nil {
			b.Fatal(err)
		}
		waitFor(b, sem, noneWaiting)
		edit := time.Since(editStart)
		heapAfter := heap()
		b.ReportMetric(float64(st.Notes), "notes")
		b.ReportMetric(float64(st.Chunks), "chunks")
		b.ReportMetric(float64(st.Unread), "unread-notes")
		b.ReportMetric(took.Seconds(), "s-to-embed")
		b.ReportMetric(median(during).Seconds()*1000, "ms-search-embedding")
		b.ReportMetric(float64(len(during)), "searches-embedding")
		b.ReportMetric(median(idle).Seconds()*1000, "ms-search-idle")
		b.ReportMetric(float64(enc.texts.Load()-before), "texts-edit")
		b.ReportMetric(edit.Seconds()*1000, "ms-edit")
		b.ReportMetric(search(b, w, "a question nobody asked before about attachments").Seconds()*1000, "ms-new-query")
		b.ReportMetric(float64(heapBefore)/(1<<20), "MiB-heap-before")
		b.ReportMetric(float64(heapAfter)/(1<<20), "MiB-heap-after")
	}
}

// share bounds the built-in encoder's cores, as cmd/wikid does; with
// WIKID_EMBED_SHARE=0, it leaves them all to the background embedding.
func share(cores int) {
	if os.Getenv("WIKID_EMBED_SHARE") == "0" {
		return
	}
	if m, err := builtin.Default(); err == nil {
		m.SetMaxWorkers(cores)
	}
}

// search runs a search by meaning and returns how long it took.
func search(b *testing.B, w *wiki.Wiki, q string) time.Duration {
	start := time.Now()
	res, err := w.Search(context.Background(), wiki.SearchParams{Query: q, Mode: wiki.SearchSemantic, Snippets: 1})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.Results) == 0 {
		b.Fatalf("%q found nothing", q)
	}
	return time.Since(start)
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// heap returns the heap in use after two collections (the second empties
// the pools of buffers the first kept).
func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
