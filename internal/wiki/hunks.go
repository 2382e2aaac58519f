package wiki

import "github.com/wikid/wikid/internal/textdiff"

// DiffHunk is a run of changed lines of a file with the unchanged lines
// around them: what a unified diff shows under one "@@" header. A front end
// shows a diff from its hunks, never by parsing the diff's text.
type DiffHunk struct {
	// OldStart and NewStart are the 1-based numbers of the hunk's first
	// line in the old and the new version; for a side where the hunk has
	// no line, the number of the line before it, as git writes it.
	// OldLines and NewLines count the hunk's lines of each side.
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []DiffLine
}

// LineKind says what a line of a hunk is.
type LineKind string

// The kinds of line of a hunk.
const (
	LineContext LineKind = "context" // unchanged, shown around a change
	LineAdded   LineKind = "added"
	LineDeleted LineKind = "deleted"
)

// DiffLine is one line of a hunk.
type DiffLine struct {
	Kind LineKind
	// Text is the line without its "\n".
	Text string
	// NoNewline is set on the last line of a version that does not end
	// with a newline.
	NoNewline bool
}

// Header returns the hunk's header as a unified diff writes it:
// "@@ -1,3 +1,4 @@".
func (h DiffHunk) Header() string {
	return textdiff.Hunk{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines}.Header()
}

// diffHunks returns textdiff's hunks as the wiki's.
func diffHunks(hs []textdiff.Hunk) []DiffHunk {
	if len(hs) == 0 {
		return nil
	}
	out := make([]DiffHunk, len(hs))
	for i, h := range hs {
		d := DiffHunk{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines,
			Lines: make([]DiffLine, len(h.Lines))}
		for j, l := range h.Lines {
			kind := LineContext
			switch l.Op {
			case textdiff.OpInsert:
				kind = LineAdded
			case textdiff.OpDelete:
				kind = LineDeleted
			}
			d.Lines[j] = DiffLine{Kind: kind, Text: l.Text, NoNewline: l.NoNewline}
		}
		out[i] = d
	}
	return out
}

// previewFiles describes the files of a mutation's diff, each with its
// hunks: diffs, changes and hunks are parallel.
func previewFiles(diffs []textdiff.FileDiff, changes []NoteChange, hunks [][]textdiff.Hunk) []DiffFile {
	out := make([]DiffFile, len(diffs))
	for i, d := range diffs {
		c := changes[i]
		f := DiffFile{Path: c.Path, File: c.File, Additions: c.Additions, Deletions: c.Deletions, Hunks: diffHunks(hunks[i])}
		switch c.Action {
		case ActionCreated:
			f.Change = ChangeAdded
		case ActionDeleted:
			f.Change = ChangeDeleted
		case ActionMoved:
			f.Change, f.OldFile = ChangeRenamed, d.OldPath
		default:
			f.Change = ChangeModified
		}
		out[i] = f
	}
	return out
}
