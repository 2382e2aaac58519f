package semantic

import (
	"bufio"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
)

// The notes' chunks are saved when the index closes with every chunk
// embedded, so that the next start takes them instead of reading every
// note again (18 s at 100,000 notes). The file describes one commit; the
// follower brings it to HEAD from there. It is only a shortcut: a file
// that is missing, damaged, of another model or naming a vector the
// vectors' file lacks is ignored, and the index is rebuilt.
const notesFile = "notes"

type savedNotes struct {
	Model  string
	Commit string
	// Reads is set when the chunks were chosen by what the model reads:
	// a file made otherwise is not taken.
	Reads bool
	Notes []savedNote
}

type savedNote struct {
	Path   string
	Chunks []savedChunk
	Unread bool
}

type savedChunk struct {
	Hash       hash
	Start, End int32
}

// saveNotes writes the notes' chunks, or removes the file when some wait
// for a vector (their texts are not saved). The caller holds mu.
func (x *Index) saveNotes() error {
	path := filepath.Join(x.dir, notesFile)
	if x.commit != "" && x.commit == x.savedAt && len(x.texts) == 0 {
		return nil // the file holds them already
	}
	x.savedAt = ""
	if x.commit == "" || len(x.texts) > 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	s := savedNotes{Model: x.emb.Model(), Commit: x.commit, Reads: x.opts.Reads != nil, Notes: make([]savedNote, len(x.notes))}
	for i, e := range x.notes {
		n := savedNote{Path: e.path, Chunks: make([]savedChunk, len(e.chunks)), Unread: e.unread}
		for j, c := range e.chunks {
			n.Chunks[j] = savedChunk{Hash: c.hash, Start: c.start, End: c.end}
		}
		s.Notes[i] = n
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = gob.NewEncoder(w).Encode(&s)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	x.savedAt = x.commit
	return nil
}

// loadNotes takes the saved notes when they fit the vectors; it reports
// whether it did. The caller holds mu or has not shared the index yet.
func (x *Index) loadNotes() bool {
	f, err := os.Open(filepath.Join(x.dir, notesFile))
	if err != nil {
		return false
	}
	defer f.Close()
	var s savedNotes
	if err := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20)).Decode(&s); err != nil || s.Model != x.emb.Model() || s.Commit == "" || s.Reads != (x.opts.Reads != nil) {
		return false
	}
	notes := make([]*entry, len(s.Notes))
	byPath := make(map[string]int, len(s.Notes))
	chunks, unread := 0, 0
	for i, n := range s.Notes {
		if _, dup := byPath[n.Path]; dup {
			return false
		}
		e := &entry{path: n.Path, chunks: make([]*chunk, len(n.Chunks)), unread: n.Unread}
		if n.Unread {
			unread++
		}
		for j, c := range n.Chunks {
			slot, ok := x.vs.slots[c.Hash]
			if !ok {
				return false
			}
			e.chunks[j] = &chunk{hash: c.Hash, slot: slot, start: c.Start, end: c.End}
		}
		notes[i], byPath[n.Path] = e, i
		chunks += len(n.Chunks)
	}
	x.commit, x.notes, x.byPath, x.chunks, x.unread, x.savedAt = s.Commit, notes, byPath, chunks, unread, s.Commit
	return true
}
