package semantic

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
	x.add("a", nil, false, nil)
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
	// A chunk waiting for its vector: nothing is saved. The background
	// embedding stops first, so that the chunk stays pending.
	y.cancel()
	<-y.done
	y.mu.Lock()
	y.add("b", []Chunk{{Text: "new", Start: 1, End: 1}}, false, nil)
	y.mu.Unlock()
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

// TestReads checks that a chunk the model cannot read is not embedded, that
// a note of such chunks alone is counted, and that the count survives a
// restart.
func TestReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	reads := func(text string) bool { return !strings.Contains(text, "ខ្មែរ") }
	x, err := Open(ctx, dir, fixedEmbedder{[]float32{1, 0}}, Options{Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	x.mu.Lock()
	for _, n := range []struct {
		path   string
		chunks []Chunk
	}{
		{"en", []Chunk{{Text: "English", Start: 1, End: 1}}},
		{"km", []Chunk{{Text: "ខ្មែរ", Start: 1, End: 1}}},
		{"mixed", []Chunk{{Text: "English", Start: 1, End: 1}, {Text: "ខ្មែរ", Start: 2, End: 2}}},
		{"empty", nil},
	} {
		chunks, unread := x.readable(n.chunks)
		x.add(n.path, chunks, unread, nil)
	}
	x.commit = "c1"
	x.mu.Unlock()
	x.signal() // as Apply does: the background embedding takes the chunks
	for changed, st := x.Changed(), x.State(); st.Pending > 0; changed, st = x.Changed(), x.State() {
		<-changed
	}
	if st := x.State(); st.Unread != 1 || st.Chunks != 2 || st.Notes != 4 {
		t.Fatalf("state %+v: want 1 unread note (km), 2 chunks, 4 notes", st)
	}
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	y, err := Open(ctx, dir, fixedEmbedder{[]float32{1, 0}}, Options{Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	if st := y.State(); y.Commit() != "c1" || st.Unread != 1 {
		t.Errorf("after a restart: commit %q, state %+v", y.Commit(), st)
	}
	// Chunks chosen without Reads are not taken by an index that reads,
	// nor the other way round.
	if err := y.Close(ctx); err != nil {
		t.Fatal(err)
	}
	z, err := Open(ctx, dir, fixedEmbedder{[]float32{1, 0}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close(ctx)
	if z.Commit() != "" {
		t.Errorf("an index that reads everything took the chunks of one that does not")
	}
}
