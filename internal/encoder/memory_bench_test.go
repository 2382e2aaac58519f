package encoder

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkModel_Memory reports the default model's heap in MB: after
// Load (load-MB, the model file itself left out), after the first Embed
// packed its weights (packed-MB), the most live and garbage heap seen while
// it embeds 1,000 chunks of about 100 tokens in calls of 16 as the
// semantic index does (peak-MB, sampled every millisecond), and what is
// left once they are done and collected (steady-MB). Run it with
// -benchtime=1x.
func BenchmarkModel_Memory(b *testing.B) {
	data, err := os.ReadFile(models[0].file)
	if err != nil {
		b.Skip(err)
	}
	chunks := make([]string, 1000)
	for i := range chunks {
		chunks[i] = fmt.Sprintf("Note %d. ", i) + strings.Repeat("The wiki keeps every note in git; a search finds the note that answers a question. ", 5)
	}
	for b.Loop() {
		base := liveHeap()
		m, err := Load(data)
		if err != nil {
			b.Fatal(err)
		}
		loaded := liveHeap()
		if _, err := m.Embed(context.Background(), chunks[:1], Passage); err != nil {
			b.Fatal(err)
		}
		packed := liveHeap()
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			for {
				metrics.Read(s)
				if v := s[0].Value.Uint64(); v > peak.Load() {
					peak.Store(v)
				}
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		var vecs [][]float32
		for i := 0; i < len(chunks); i += 16 {
			v, err := m.Embed(context.Background(), chunks[i:min(i+16, len(chunks))], Passage)
			if err != nil {
				b.Fatal(err)
			}
			vecs = append(vecs, v...)
		}
		close(done)
		steady := liveHeap()
		runtime.KeepAlive(m)
		const mb = 1 << 20
		b.ReportMetric(float64(loaded-base)/mb, "load-MB")
		b.ReportMetric(float64(packed-base)/mb, "packed-MB")
		b.ReportMetric(float64(peak.Load()-base)/mb, "peak-MB")
		b.ReportMetric(float64(steady-base)/mb, "steady-MB")
		b.ReportMetric(float64(len(vecs)*len(vecs[0])*4)/mb, "vectors-MB")
	}
}

// liveHeap collects and returns the bytes of live heap objects.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
