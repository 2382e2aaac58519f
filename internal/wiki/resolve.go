package wiki

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// noteExts are the markdown extensions a note file may have, in the order a
// path without extension tries them.
var noteExts = note.Extensions()

// SplitNoteExtension splits a markdown extension, in any case, off a file
// name or link target, for the adapters that do not read notes: the note
// model's one list of extensions (see note.Extensions).
func SplitNoteExtension(name string) (base, ext string) { return note.SplitExtension(name) }

// locate finds the file of an existing note in snap. notePath and ext come
// from note.CleanPath. Without an extension the markdown extensions are
// tried in order; a miss falls back to a unique case-insensitive match. It
// returns an error wrapping ErrNotFound when there is no such note and
// ErrAmbiguous when several notes differ from the path only in case.
func (w *Wiki) locate(ctx context.Context, snap Snapshot, notePath, ext string) (File, error) {
	exts := noteExts
	if ext != "" {
		exts = []string{ext}
	}
	for _, e := range exts {
		f, err := snap.Stat(ctx, note.FileName(notePath, e))
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return File{}, err
		}
	}
	return w.locateFold(ctx, snap, notePath, ext)
}

// locateFold is locate's case-insensitive fallback. It asks the wiki's
// case-folded index of the tree, which follows the commits by tree diffs.
func (w *Wiki) locateFold(ctx context.Context, snap Snapshot, notePath, ext string) (File, error) {
	candidates, err := w.fold.lookup(ctx, w.store, snap, notePath)
	if err != nil {
		return File{}, err
	}
	files := make([]File, 0, len(candidates))
	for _, c := range candidates {
		f, err := snap.Stat(ctx, c)
		if err != nil {
			return File{}, err
		}
		files = append(files, f)
	}
	var matches []File
	for _, f := range files {
		p, e, ok := note.SplitFileName(f.Path)
		if !ok || !strings.EqualFold(p, notePath) || (ext != "" && !strings.EqualFold(e, ext)) {
			continue
		}
		matches = append(matches, f)
	}
	switch len(matches) {
	case 0:
		return File{}, Errorf(CodeNotFound, "no note %q", notePath).
			WithHint("check the path with {list} or find it with {search} or {resolve}")
	case 1:
		return matches[0], nil
	default:
		names := make([]string, len(matches))
		for i, m := range matches {
			names[i] = m.Path
		}
		return File{}, Errorf(CodeAmbiguous, "%q matches %d notes that differ only in case: %s",
			notePath, len(matches), strings.Join(names, ", ")).WithHint("give the path with its exact case")
	}
}

// notePathOf returns the note path of a repository file.
func notePathOf(file string) string {
	p, _, ok := note.SplitFileName(file)
	if !ok {
		return file
	}
	return p
}

// readNote reads and parses the note at notePath in snap.
func (w *Wiki) readNote(ctx context.Context, snap Snapshot, notePath, ext string) (File, *note.Note, error) {
	f, err := w.locate(ctx, snap, notePath, ext)
	if err != nil {
		return File{}, nil, err
	}
	f, content, err := snap.Read(ctx, f.Path)
	if err != nil {
		return File{}, nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return f, w.parse(notePathOf(f.Path), f, content), nil
}
