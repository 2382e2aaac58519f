package semantic

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpenVectors holds the reading of a vectors file to: its whole
// records, or nothing; never a panic or a vector of the wrong length.
func FuzzOpenVectors(f *testing.F) {
	good := []byte(vectorsMagic + `{"model":"m","dims":2}` + "\n")
	good = append(good, make([]byte, 32+8)...)
	f.Add(good)
	f.Add(good[:len(good)-3])
	f.Add([]byte(vectorsMagic + `{"model":"m","dims":1000000000}` + "\n"))
	f.Add([]byte(vectorsMagic + `{"model":"other","dims":2}` + "\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, vectorsFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		vs, err := openVectors(dir, "m")
		if err != nil {
			t.Fatal(err)
		}
		defer vs.close()
		if len(vs.data) != vs.len()*vs.dims {
			t.Fatalf("%d numbers for %d vectors of %d", len(vs.data), vs.len(), vs.dims)
		}
		// A vector added after it lands after the records kept.
		if vs.dims > 0 {
			v := make([]float32, vs.dims)
			v[0] = 1
			if _, err := vs.add([]hash{{1, 2, 3}}, [][]float32{v}); err != nil {
				t.Fatal(err)
			}
			vs.close()
			again, err := openVectors(dir, "m")
			if err != nil {
				t.Fatal(err)
			}
			defer again.close()
			if _, ok := again.slots[hash{1, 2, 3}]; !ok {
				t.Fatal("the vector added is lost")
			}
		}
	})
}
