package wiki

import (
	"bytes"
	"strings"

	"github.com/wikid/wikid/internal/textdiff"
)

// proposalHunks returns the hunks of a proposed note's change against ours,
// the branch's content now, as Proposal's Diff shows them (3 lines of
// context), numbered from 1 in that order.
func proposalHunks(file string, ours, merged []byte) []textdiff.Hunk {
	_, hunks := textdiff.UnifiedHunks([]textdiff.FileDiff{{OldPath: file, NewPath: file, Old: ours, New: merged}}, 3)
	if len(hunks) == 0 {
		return nil
	}
	return hunks[0]
}

// applyHunk returns old with one hunk of its diff to another text applied:
// the hunk's old lines replaced by its context and inserted lines.
func applyHunk(old []byte, h textdiff.Hunk) []byte {
	lines := bytes.SplitAfter(old, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	start := h.OldStart - 1 // lines before the hunk
	if h.OldLines == 0 {
		start = h.OldStart
	}
	start = min(max(start, 0), len(lines))
	end := min(start+h.OldLines, len(lines))
	var b bytes.Buffer
	for _, l := range lines[:start] {
		b.Write(l)
	}
	for _, l := range h.Lines {
		if l.Op == textdiff.OpDelete {
			continue
		}
		b.WriteString(l.Text)
		if !l.NoNewline {
			b.WriteByte('\n')
		}
	}
	for _, l := range lines[end:] {
		b.Write(l)
	}
	return b.Bytes()
}

// hunkSummary names a hunk in a message: its header.
func hunkSummary(h textdiff.Hunk) string { return strings.TrimSpace(h.Header()) }
