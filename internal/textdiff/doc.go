// Package textdiff computes line diffs of notes: git-compatible unified
// diffs for previews and history, added/deleted line counts, a risk level
// for a proposed change, and a line-based three-way merge for reverts.
//
// Texts are compared line by line, where a line keeps its "\n" (so "\r\n"
// endings are part of the content and a last line without a newline differs
// from the same line with one). Texts are treated as bytes: invalid UTF-8,
// NUL bytes and very long lines pass through unchanged.
//
// The line diff is github.com/sergi/go-diff's Myers diff run on line
// identifiers. It is minimal and deterministic while the part of the two
// texts between their common prefix and suffix has at most 16384 lines;
// beyond that the search is bounded by a one-second deadline, after which
// the diff is still correct but may be larger than necessary.
package textdiff
