package wiki

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// foldIndex maps the keys of note paths (see note.NameKey: case and
// Unicode normalization folded) to the files that have them, and the
// folders of notes, in normal form C, to their spellings in the tree, for
// one commit. Asked about another commit, it applies the tree diff from the
// one it holds, so a case-insensitive miss (every new note's creation) costs
// a diff of the few trees that changed, not a listing of the whole tree.
type foldIndex struct {
	mu     sync.Mutex
	commit string
	files  map[string][]string // nil until first built
	shared map[string]bool     // keys of files with more than one file
	// dirs maps each folder holding notes, in normal form C, to its
	// spellings in the tree and how many notes each holds at any depth.
	dirs map[string]map[string]int
}

// lookup returns the files of snap whose note path has the key of
// notePath: equal to it ignoring case and Unicode normalization.
func (fi *foldIndex) lookup(ctx context.Context, store Store, snap Snapshot, notePath string) ([]string, error) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if err := fi.moveTo(ctx, store, snap); err != nil {
		return nil, err
	}
	return slices.Clone(fi.files[note.NameKey(notePath)]), nil
}

// spellFolder returns folder ("" for the root), in normal form C for a
// new note, spelled as snap spells it: when folder, or a folder it is in,
// holds notes in snap only under another normalization form (a folder
// "Re\u0301unions" committed from macOS), it returns that spelling (of
// several, the one with the most notes), so that a note goes into that
// folder rather than next to it, where macOS would see one folder and git
// two. A folder that exists as given, or not at all, is returned as given.
func (fi *foldIndex) spellFolder(ctx context.Context, store Store, snap Snapshot, folder string) (string, error) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if err := fi.moveTo(ctx, store, snap); err != nil {
		return "", err
	}
	for dir, rest := folder, ""; dir != "" && dir != "."; {
		if spellings := fi.dirs[note.Normalize(dir)]; len(spellings) > 0 {
			if spellings[dir] > 0 {
				return folder, nil
			}
			best := ""
			for sp, n := range spellings {
				if best == "" || n > spellings[best] || n == spellings[best] && sp < best {
					best = sp
				}
			}
			return best + rest, nil
		}
		rest = dir[max(strings.LastIndexByte(dir, '/'), 0):] + rest
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			dir = dir[:i]
		} else {
			dir = ""
		}
	}
	return folder, nil
}

// filesOf returns, in path order, the files of snap under folder ("" for
// all) whose note paths are in paths, and every file under folder that
// shares its note path with another, ignoring case.
func (fi *foldIndex) filesOf(ctx context.Context, store Store, snap Snapshot, paths []string, folder string) ([]string, error) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if err := fi.moveTo(ctx, store, snap); err != nil {
		return nil, err
	}
	var out []string
	add := func(file string) {
		if folder == "" || strings.HasPrefix(file, folder+"/") {
			out = append(out, file)
		}
	}
	for _, p := range paths {
		k := note.NameKey(p)
		for _, f := range fi.files[k] {
			if !fi.shared[k] && notePathOf(f) == p {
				add(f)
			}
		}
	}
	for k := range fi.shared {
		for _, f := range fi.files[k] {
			add(f)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (fi *foldIndex) moveTo(ctx context.Context, store Store, snap Snapshot) error {
	to := snap.Commit()
	if fi.files != nil && fi.commit == to {
		return nil
	}
	if fi.files != nil {
		changes, err := store.Changes(ctx, fi.commit, to)
		if err == nil {
			for _, ch := range changes {
				if ch.Delete {
					fi.remove(ch.Path)
				} else {
					fi.add(ch.Path)
				}
			}
			fi.commit = to
			return nil
		}
		// The commit it holds may be gone (history rewritten and pruned):
		// list the tree instead.
		fi.files = nil
	}
	files, err := snap.Files(ctx, "")
	if err != nil {
		return fmt.Errorf("case-insensitive lookup: %w", err)
	}
	fi.files = make(map[string][]string, len(files))
	fi.shared = map[string]bool{}
	fi.dirs = map[string]map[string]int{}
	for _, f := range files {
		fi.add(f.Path)
	}
	fi.commit = to
	return nil
}

func (fi *foldIndex) add(file string) {
	p, _, ok := note.SplitFileName(file)
	if !ok {
		return
	}
	k := note.NameKey(p)
	if slices.Contains(fi.files[k], file) {
		return
	}
	fi.files[k] = append(fi.files[k], file)
	if len(fi.files[k]) > 1 {
		fi.shared[k] = true
	}
	fi.countDirs(p, 1)
}

func (fi *foldIndex) remove(file string) {
	p, _, ok := note.SplitFileName(file)
	if !ok {
		return
	}
	k := note.NameKey(p)
	if !slices.Contains(fi.files[k], file) {
		return
	}
	fi.files[k] = slices.DeleteFunc(fi.files[k], func(f string) bool { return f == file })
	if len(fi.files[k]) < 2 {
		delete(fi.shared, k)
	}
	if len(fi.files[k]) == 0 {
		delete(fi.files, k)
	}
	fi.countDirs(p, -1)
}

// countDirs adds n to the note count of every folder notePath is in.
func (fi *foldIndex) countDirs(notePath string, n int) {
	for i := strings.LastIndexByte(notePath, '/'); i > 0; i = strings.LastIndexByte(notePath[:i], '/') {
		dir := notePath[:i]
		key := note.Normalize(dir)
		spellings := fi.dirs[key]
		if spellings == nil {
			spellings = map[string]int{}
			fi.dirs[key] = spellings
		}
		spellings[dir] += n
		if spellings[dir] <= 0 {
			delete(spellings, dir)
			if len(spellings) == 0 {
				delete(fi.dirs, key)
			}
		}
	}
}
