package encoder

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkModel_workers embeds a batch of 32 passages of 64 tokens with
// the default model three ways: on one worker, on GOMAXPROCS workers that
// share out the rows and heads of one forward pass (rows), and with the
// batch cut in GOMAXPROCS parts each run on one worker (seqs). It reports
// tokens per CPU-second and per second of wall clock.
func BenchmarkModel_workers(b *testing.B) {
	m := loadModel(b, models[0].file)
	seqs := make([][]int32, 32)
	for i := range seqs {
		ids, err := m.Tokenize(fmt.Sprintf("note %d: ", i)+strings.Repeat("the wiki keeps every note in git and ", 20), Passage)
		if err != nil {
			b.Fatal(err)
		}
		seqs[i] = append(ids[:63:63], ids[len(ids)-1])
	}
	tokens := 64 * len(seqs)
	procs := runtime.GOMAXPROCS(0)
	out := make([][]float32, len(seqs))
	ways := []struct {
		name string
		f    func()
	}{
		{"one", func() { m.forward(seqs, out, 1) }},
		{"rows", func() { m.forward(seqs, out, procs) }},
		{"seqs", func() {
			var wg sync.WaitGroup
			for p := range procs {
				lo, hi := len(seqs)*p/procs, len(seqs)*(p+1)/procs
				wg.Go(func() { m.forward(seqs[lo:hi], out[lo:hi], 1) })
			}
			wg.Wait()
		}},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				w.f()
			}
			b.ReportMetric(float64(tokens*b.N)/(cpuTime()-cpu).Seconds(), "tokens/cpu-s")
			b.ReportMetric(float64(tokens*b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}

// BenchmarkModel_query embeds a question of 20 tokens (the model's query
// instruction included) 50 times with Embed, as a search does, and reports
// the least and the median wall-clock time of one, in milliseconds, on one
// worker and on GOMAXPROCS.
func BenchmarkModel_query(b *testing.B) {
	m := loadModel(b, models[0].file)
	text := "where does wikid keep the notes"
	for n := 0; n < 8; n++ {
		ids, _ := m.Tokenize(text, Query)
		if len(ids) >= 20 {
			break
		}
		text += " today"
	}
	ids, _ := m.Tokenize(text, Query)
	b.Logf("%d tokens: %q", len(ids), text)
	if _, err := m.Embed(context.Background(), []string{text}, Query); err != nil {
		b.Fatal(err)
	}
	defer m.SetMaxWorkers(0)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprint(workers), func(b *testing.B) {
			m.SetMaxWorkers(workers)
			for b.Loop() {
				times := make([]time.Duration, 50)
				for i := range times {
					start := time.Now()
					if _, err := m.Embed(context.Background(), []string{text}, Query); err != nil {
						b.Fatal(err)
					}
					times[i] = time.Since(start)
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[0])/1e6, "min-ms")
				b.ReportMetric(float64(times[len(times)/2])/1e6, "median-ms")
			}
		})
	}
}
