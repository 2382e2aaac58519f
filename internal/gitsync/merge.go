package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// Store is what a merge reads of the repository.
type Store interface {
	Snapshot(ctx context.Context, commit string) (wiki.Snapshot, error)
	Changes(ctx context.Context, from, to string) ([]wiki.FileChange, error)
}

// side is what one side of a merge did to each file since the base.
type side struct {
	changes map[string]wiki.FileChange // by path
	renamed map[string]string          // old path to new path
}

// MergeReport lists what a merge did, for its commit message and for
// wiki_status.
type MergeReport struct {
	// Merged are the files both sides changed, merged.
	Merged []string
	// Conflicts are the files both sides changed in ways that do not merge:
	// the file keeps this side's version and theirs is kept whole as a
	// conflict copy beside it.
	Conflicts []Conflict
}

// Conflict is a file whose other side was kept as a copy.
type Conflict struct {
	Path, Copy, Why string
}

// merger makes the changes of a merge commit.
type merger struct {
	store Store
	// label names the other side in conflict copies: "origin".
	label string
	now   time.Time
	// report is filled in by merge.
	report MergeReport
	// taken says whether a path is in use, for conflict copies.
	taken func(file string) bool
}

// merge returns the files of ours that the merge of theirs changes, by the
// rules of the package documentation.
func (m *merger) merge(ctx context.Context, base, ours, theirs string) ([]wiki.FileChange, error) {
	so, err := m.side(ctx, base, ours)
	if err != nil {
		return nil, err
	}
	st, err := m.side(ctx, base, theirs)
	if err != nil {
		return nil, err
	}
	snaps := map[string]wiki.Snapshot{}
	for _, c := range []string{base, ours, theirs} {
		if snaps[c], err = m.store.Snapshot(ctx, c); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	read := func(commit, file string) ([]byte, bool, error) {
		_, b, err := snaps[commit].Read(ctx, file)
		if err != nil {
			if errors.Is(err, wiki.ErrNotFound) || wiki.CodeOf(err) == wiki.CodeNotFound {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("merge: read %s: %w", file, err)
		}
		return b, true, nil
	}

	out := map[string]wiki.FileChange{}
	set := func(file string, content []byte) { out[file] = wiki.FileChange{Path: file, Content: content} }
	// A conflict copy never takes a path either side has, or this merge
	// gives: an earlier copy of the same note is kept too.
	m.taken = func(file string) bool {
		if _, ok := out[file]; ok {
			return true
		}
		for _, c := range []string{ours, theirs} {
			if _, err := snaps[c].Stat(ctx, file); err == nil {
				return true
			}
		}
		return false
	}
	del := func(file string) { out[file] = wiki.FileChange{Path: file, Delete: true} }

	// A rename on one side with edits on the other: the edits land on the
	// renamed file.
	for from, to := range st.renamed {
		if o, ok := so.changes[from]; ok && !o.Delete {
			if _, moved := so.renamed[from]; !moved {
				b, _, err := read(base, from)
				if err != nil {
					return nil, err
				}
				o, _, err := read(ours, from)
				if err != nil {
					return nil, err
				}
				t, _, err := read(theirs, to)
				if err != nil {
					return nil, err
				}
				if err := m.both(to, nil, b, o, t, set); err != nil {
					return nil, err
				}
				del(from)
				delete(st.changes, from)
				delete(st.changes, to)
			}
		}
	}
	for from, to := range so.renamed {
		if t, ok := st.changes[from]; ok && !t.Delete {
			if _, moved := st.renamed[from]; !moved {
				b, _, err := read(base, from)
				if err != nil {
					return nil, err
				}
				o, _, err := read(ours, to)
				if err != nil {
					return nil, err
				}
				t, _, err := read(theirs, from)
				if err != nil {
					return nil, err
				}
				if err := m.both(to, o, b, o, t, set); err != nil {
					return nil, err
				}
				delete(st.changes, from)
			}
		}
	}

	paths := make([]string, 0, len(st.changes))
	for p := range st.changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, file := range paths {
		t := st.changes[file]
		o, changedOurs := so.changes[file]
		switch {
		case !changedOurs:
			if t.Delete {
				del(file)
				continue
			}
			tc, _, err := read(theirs, file)
			if err != nil {
				return nil, err
			}
			set(file, tc)
		case o.Delete && t.Delete:
			// Both deleted it.
		case o.Delete:
			// Theirs edited what ours deleted: the edit is kept, nothing
			// is lost; deleting it again is one call.
			tc, _, err := read(theirs, file)
			if err != nil {
				return nil, err
			}
			set(file, tc)
			m.report.Conflicts = append(m.report.Conflicts, Conflict{Path: file, Why: "deleted here, edited there: the edit is kept"})
		case t.Delete:
			// Ours edited what theirs deleted: ours stays as it is.
			m.report.Conflicts = append(m.report.Conflicts, Conflict{Path: file, Why: "edited here, deleted there: the edit is kept"})
		default:
			b, _, err := read(base, file)
			if err != nil {
				return nil, err
			}
			oc, _, err := read(ours, file)
			if err != nil {
				return nil, err
			}
			tc, _, err := read(theirs, file)
			if err != nil {
				return nil, err
			}
			if err := m.both(file, oc, b, oc, tc, set); err != nil {
				return nil, err
			}
		}
	}
	changes := make([]wiki.FileChange, 0, len(out))
	for _, c := range out {
		changes = append(changes, c)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

// both merges a file that both sides changed: a note line by line and key
// by key, another file only when one side's version is the other's. What
// does not merge keeps ours, and theirs goes to a conflict copy. at is
// what ours holds at file (nil when nothing: the file is where the other
// side renamed it).
func (m *merger) both(file string, at, base, ours, theirs []byte, set func(string, []byte)) error {
	keep := func(content []byte) {
		if at == nil || string(content) != string(at) {
			set(file, content)
		}
	}
	if string(ours) == string(theirs) {
		keep(ours)
		return nil
	}
	why := "both sides changed it"
	if note.IsMarkdown(file) && base != nil {
		merged, reason := mergeNote(base, ours, theirs)
		if reason == "" {
			keep(merged)
			m.report.Merged = append(m.report.Merged, file)
			return nil
		}
		why = reason
	} else if base == nil {
		why = "both sides added it"
	}
	keep(ours)
	copyPath := m.copyPath(file)
	set(copyPath, theirs)
	m.report.Conflicts = append(m.report.Conflicts, Conflict{Path: file, Copy: copyPath, Why: why})
	return nil
}

// copyPath names the conflict copy of a file: "Note (conflict 2026-11-23
// origin).md" beside it, or with " 2", " 3", ... after origin when that
// path is taken.
func (m *merger) copyPath(file string) string {
	p := note.ConflictCopy(file, m.now, m.label, 1)
	for n := 2; m.taken != nil && m.taken(p); n++ {
		p = note.ConflictCopy(file, m.now, m.label, n)
	}
	return p
}

// side returns what changed from base to commit, without the content
// (merge reads only what it needs), and the renames: a file deleted and a
// file added with the same content.
func (m *merger) side(ctx context.Context, base, commit string) (*side, error) {
	list, err := m.store.Changes(ctx, base, commit)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	s := &side{changes: map[string]wiki.FileChange{}, renamed: map[string]string{}}
	deleted := map[string]string{} // old blob to path
	for _, c := range list {
		if c.NewBlob == "" {
			c.Delete = true
			deleted[c.OldBlob] = c.Path
		}
		s.changes[c.Path] = c
	}
	for p, c := range s.changes {
		if c.OldBlob == "" && !c.Delete {
			if from, ok := deleted[c.NewBlob]; ok {
				s.renamed[from] = p
				delete(deleted, c.NewBlob)
			}
		}
	}
	return s, nil
}

// message is the body of the merge commit: what was merged and every
// conflict copy.
func (r *MergeReport) message(theirs string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Integrates %s.\n", theirs)
	if len(r.Merged) > 0 {
		b.WriteString("\nMerged, both sides kept:\n")
		for _, p := range r.Merged {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	if len(r.Conflicts) > 0 {
		b.WriteString("\nConflicts:\n")
		for _, c := range r.Conflicts {
			if c.Copy != "" {
				fmt.Fprintf(&b, "- %s: %s; the other side is in %s\n", c.Path, c.Why, c.Copy)
			} else {
				fmt.Fprintf(&b, "- %s: %s\n", c.Path, c.Why)
			}
		}
	}
	b.WriteString("\nWiki-Tool: sync\nWiki-Client: wikid\n")
	return b.String()
}
