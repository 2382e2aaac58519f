package wiki

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/wikid/wikid/internal/note"
)

// foldIndex maps case-folded note paths to the files that have them, for
// one commit. Asked about another commit, it applies the tree diff from the
// one it holds, so a case-insensitive miss (every new note's creation) costs
// a diff of the few trees that changed, not a listing of the whole tree.
type foldIndex struct {
	mu     sync.Mutex
	commit string
	files  map[string][]string // nil until first built
	shared map[string]bool     // keys of files with more than one file
}

// lookup returns the files of snap whose note path equals notePath
// ignoring case.
func (fi *foldIndex) lookup(ctx context.Context, store Store, snap Snapshot, notePath string) ([]string, error) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if err := fi.moveTo(ctx, store, snap); err != nil {
		return nil, err
	}
	return slices.Clone(fi.files[strings.ToLower(notePath)]), nil
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
		for _, f := range fi.files[strings.ToLower(p)] {
			if !fi.shared[strings.ToLower(p)] && notePathOf(f) == p {
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
	k := strings.ToLower(p)
	if !slices.Contains(fi.files[k], file) {
		fi.files[k] = append(fi.files[k], file)
	}
	if len(fi.files[k]) > 1 {
		fi.shared[k] = true
	}
}

func (fi *foldIndex) remove(file string) {
	p, _, ok := note.SplitFileName(file)
	if !ok {
		return
	}
	k := strings.ToLower(p)
	fi.files[k] = slices.DeleteFunc(fi.files[k], func(f string) bool { return f == file })
	if len(fi.files[k]) < 2 {
		delete(fi.shared, k)
	}
	if len(fi.files[k]) == 0 {
		delete(fi.files, k)
	}
}
