package encoder

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// BenchmarkModel_EmbedIDs embeds one sequence of 16 to 256 tokens at a time
// on one worker and reports tokens per CPU-second of the process
// (tokens/cpu-s; on a busy machine the wall clock says less), to compare
// with onnxruntime on one thread (testdata/ortbench.py).
func BenchmarkModel_EmbedIDs(b *testing.B) {
	for _, mf := range models {
		m := loadModel(b, mf.file)
		ids, err := m.Tokenize(strings.Repeat("the wiki keeps every note in git and ", 100), Passage)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{16, 64, 128, 256} {
			if n > m.MaxTokens() {
				continue
			}
			seq := append(append([]int32{}, ids[:n-1]...), ids[len(ids)-1])
			b.Run(fmt.Sprintf("%s/%d", m.Name(), n), func(b *testing.B) {
				cpu := cpuTime()
				out := make([][]float32, 1)
				for b.Loop() {
					m.forward([][]int32{seq}, out, 1)
				}
				b.ReportMetric(float64(n*b.N)/(cpuTime()-cpu).Seconds(), "tokens/cpu-s")
			})
		}
	}
}

// BenchmarkModel_Tokenize tokenizes a paragraph of mixed text and reports
// tokens per second.
func BenchmarkModel_Tokenize(b *testing.B) {
	m := loadModel(b, models[0].file)
	text := strings.Repeat("Résumé of the 東京 trip: 3 days, ¥45,000 — see [[Daily Notes/2024-03-01]]. ", 6)
	n := 0
	for b.Loop() {
		ids, _ := m.Tokenize(text, Passage)
		n += len(ids)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "tokens/s")
}

// BenchmarkLoad loads the default model file from memory.
func BenchmarkLoad(b *testing.B) {
	data, err := os.ReadFile(models[0].file)
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(data); err != nil {
			b.Fatal(err)
		}
	}
}
