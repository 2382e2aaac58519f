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
// tried in order; a miss falls back to a unique match ignoring case and
// Unicode normalization, so that "café" finds a note committed as
// "cafe\u0301" from macOS and the other way round. It returns an error
// wrapping ErrNotFound when there is no such note and ErrAmbiguous when
// several notes differ from the path only in case.
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

// locateFold is locate's fallback. It asks the wiki's index of the tree by
// note.NameKey, which follows the commits by tree diffs. Of several notes
// that differ from notePath, the one that differs only in normalization
// (the same letters, in the same case) wins.
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
	key, nfc := note.NameKey(notePath), note.Normalize(notePath)
	var matches, same []File
	for _, f := range files {
		p, e, ok := note.SplitFileName(f.Path)
		if !ok || note.NameKey(p) != key || (ext != "" && !strings.EqualFold(e, ext)) {
			continue
		}
		matches = append(matches, f)
		if note.Normalize(p) == nfc {
			same = append(same, f)
		}
	}
	if len(same) == 1 {
		return same[0], nil
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
		return File{}, Errorf(CodeAmbiguous, "%q matches %d notes that differ only in case or in how their accents are encoded: %s",
			notePath, len(matches), strings.Join(names, ", ")).WithHint("give the path exactly as one of them is written")
	}
}

// newNotePath returns the path a new note at notePath gets in snap:
// notePath in normal form C (see note.Normalize), in its folder as snap
// spells it when that folder exists only in another normalization form.
func (w *Wiki) newNotePath(ctx context.Context, snap Snapshot, notePath string) (string, error) {
	notePath = note.Normalize(notePath)
	i := strings.LastIndexByte(notePath, '/')
	if i < 0 {
		return notePath, nil
	}
	dir, err := w.fold.spellFolder(ctx, w.store, snap, notePath[:i])
	if err != nil {
		return "", err
	}
	return dir + notePath[i:], nil
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
