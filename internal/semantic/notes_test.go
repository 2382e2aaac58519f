package semantic

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestSaveNotes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	x, err := Open(ctx, dir, fixedEmbedder{[]float32{1, 0}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := hash{1}
	if _, err := x.vs.add([]hash{h}, [][]float32{{1, 0}}); err != nil {
		t.Fatal(err)
	}
	x.mu.Lock()
	x.commit = "c1"
	x.add("a", nil)
	x.notes[0].chunks = []*chunk{{hash: h, slot: 0, start: 1, end: 2}}
	x.chunks = 1
	x.mu.Unlock()
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	y, err := Open(ctx, dir, fixedEmbedder{[]float32{1, 0}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if y.Commit() != "c1" || len(y.notes) != 1 || y.notes[0].chunks[0].slot != 0 {
		t.Fatalf("loaded %q, %d notes", y.Commit(), len(y.notes))
	}
	// A chunk waiting for its vector: nothing is saved.
	y.mu.Lock()
	y.add("b", []Chunk{{Text: "new", Start: 1, End: 1}})
	y.mu.Unlock()
	y.cancel() // no background embedding: the chunk stays pending
	<-y.done
	y.mu.Lock()
	err = y.saveNotes()
	y.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, notesFile)); !os.IsNotExist(err) {
		t.Errorf("notes saved with a chunk pending: %v", err)
	}
	y.vs.close()
}

// FuzzLoadNotes holds the reading of the saved notes to the notes or
// nothing, never a panic.
func FuzzLoadNotes(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x1f\xff\x81\x03\x01\x01\nsavedNotes"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, notesFile), data, 0o644)
		x := &Index{dir: dir, emb: fixedEmbedder{[]float32{1}}, vs: &vectors{slots: map[hash]int32{}}, byPath: map[string]int{}}
		if x.loadNotes() && x.commit == "" {
			t.Fatal("loaded notes of no commit")
		}
	})
}
