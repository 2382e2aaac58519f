package grammar

import (
	"testing"
	"time"
)

// typical is a query with a bit of everything that an assistant sends.
const typical = `word tag:x folder:y -tag:z "a phrase" modified:>=2024-01`

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(typical, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse_Error measures a rejected query, which also runs diagnose.
func BenchmarkParse_Error(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(`word tag:x (folder:y OR -tag:z "a phrase"`, time.UTC); err == nil {
			b.Fatal("no error")
		}
	}
}

func BenchmarkQuery_String(b *testing.B) {
	q, err := Parse(typical, time.UTC)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = q.String()
	}
}
