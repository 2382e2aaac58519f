// Package textdiff computes line diffs of notes: git-compatible unified
// diffs for previews and history, added/deleted line counts, a risk level
// for a proposed change, and a line-based three-way merge for reverts.
//
// Texts are compared line by line, where a line keeps its "\n" (so "\r\n"
// endings are part of the content and a last line without a newline differs
// from the same line with one). Texts are treated as bytes: invalid UTF-8,
// NUL bytes and very long lines pass through unchanged.
//
// The line diff is github.com/sergi/go-diff's Myers diff, run on the lines
// that occur in both texts, each encoded as one rune; runs of inserted or
// deleted lines are then slid into place the way git does. The diff is
// minimal and deterministic while the lines between the texts' common prefix
// and suffix that occur on both sides number at most 8192 (old plus new);
// beyond that the search is bounded by a half-second deadline, after which
// the diff is still correct but may be larger than necessary.
package textdiff
