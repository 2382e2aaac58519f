package embed

import (
	"testing"
)

// FuzzParseResponse holds the reading of an endpoint's answer to: vectors
// for every text, all of one length and finite, or an error.
func FuzzParseResponse(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":0,"embedding":[0.1,0.2]},{"index":1,"embedding":[0.3,0.4]}]}`), 2)
	f.Add([]byte(`{"data":[{"index":1,"embedding":[1]},{"index":1,"embedding":[2]}]}`), 2)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1e400]}]}`), 1)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[1,2]}]}`), 2)
	f.Add([]byte(`[]`), 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 1000 {
			return
		}
		vecs, err := parseResponse(data, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d texts", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) == 0 || len(v) != len(vecs[0]) {
				t.Fatalf("vectors of lengths %d and %d", len(v), len(vecs[0]))
			}
		}
	})
}
