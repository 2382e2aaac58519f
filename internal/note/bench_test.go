package note

import "testing"

// BenchmarkParse_Fixtures parses every note of the basic fixture wiki per
// iteration and reports the mean time per note.
func BenchmarkParse_Fixtures(b *testing.B) {
	fixtures := loadFixtures(b)
	var size int64
	for _, f := range fixtures {
		size += int64(len(f.Src))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range fixtures {
			Parse(f.NotePath, f.Src)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(fixtures)), "ns/note")
}
