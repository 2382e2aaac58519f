package web

import (
	"path"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// changedFile is one file of a commit's list: what happened to it, its
// line counts and its diff, if it has one to show.
type changedFile struct {
	wiki.DiffFile
	// Anchor is the id of its diff on the page; "" when it has none (a
	// pure rename, a binary file).
	Anchor string
	Diff   *fileDiff
}

// Kind words the change for the list: "added", "renamed", ...
func (f changedFile) Kind() string { return string(f.Change) }

// PureRename reports a rename without edits, shown as one line.
func (f changedFile) PureRename() bool {
	return f.Change == wiki.ChangeRenamed && f.Additions == 0 && f.Deletions == 0
}

// commitFiles pairs the files of a diff with the diffs to show and
// splits off the notes whose only change is links rewritten to the notes
// the commit renamed: a move's other half, listed apart so a rename of a
// folder reads as renames, not as dozens of diffs.
func commitFiles(diff []wiki.DiffFile) (files, rewrites []changedFile) {
	var renamed []string // the old names of the renamed notes, as links write them
	for _, f := range diff {
		if f.Change == wiki.ChangeRenamed {
			old := strings.TrimSuffix(f.OldFile, path.Ext(f.OldFile))
			renamed = append(renamed, old, path.Base(old))
		}
	}
	for i, f := range diff {
		c := changedFile{DiffFile: f}
		if len(f.Hunks) > 0 {
			c.Diff, c.Anchor = &fileDiff{Header: fileName(f), Lines: diffLines(f.Hunks)}, "file-"+strconv.Itoa(i+1)
		}
		if f.Change == wiki.ChangeModified && c.Diff != nil && len(renamed) > 0 && onlyLinks(c.Diff, renamed) {
			rewrites = append(rewrites, c)
			continue
		}
		files = append(files, c)
	}
	return files, rewrites
}

// onlyLinks reports whether every line a diff removes names one of the
// old names in a link, in any case: links find notes ignoring case, and a
// move rewrites [[Projects/P1]] as it rewrites [[projects/p1]].
func onlyLinks(d *fileDiff, names []string) bool {
	for _, l := range d.Lines {
		if l.Kind != "del" {
			continue
		}
		var text strings.Builder
		for _, p := range l.Parts {
			text.WriteString(p.Text)
		}
		s := strings.ToLower(text.String())
		if !strings.Contains(s, "[[") && !strings.Contains(s, "](") {
			return false
		}
		found := false
		for _, n := range names {
			if strings.Contains(s, strings.ToLower(n)) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
