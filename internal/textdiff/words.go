package textdiff

import (
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// WordOp says what a part of a word diff is.
type WordOp int

// Word diff operations.
const (
	// WordEqual is in both the old and the new line.
	WordEqual WordOp = iota
	// WordDeleted is in the old line only.
	WordDeleted
	// WordInserted is in the new line only.
	WordInserted
)

// WordPart is a run of words and the characters between them that a word
// diff keeps, deletes or inserts.
type WordPart struct {
	Op   WordOp
	Text string
}

// Words returns the word diff of an old and a new line: the parts in
// order, the old line the equal and deleted parts, the new line the equal
// and inserted ones. A word is a run of letters, digits and '_' (any
// character past ASCII counts as a letter); every other character is a
// part of its own. It never fails.
func Words(old, new string) []WordPart {
	dmp := diffmatchpatch.New()
	a, b, words := dmp.DiffLinesToRunes(splitWords(old), splitWords(new))
	dmp.DiffTimeout = 0
	if len(a)+len(b) > exactLimit {
		dmp.DiffTimeout = deadline
	}
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), words)
	parts := make([]WordPart, 0, len(diffs))
	for _, d := range diffs {
		p := WordPart{Text: strings.ReplaceAll(d.Text, "\n", "")} // the separators of splitWords
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			p.Op = WordDeleted
		case diffmatchpatch.DiffInsert:
			p.Op = WordInserted
		}
		parts = append(parts, p)
	}
	return parts
}

// splitWords puts each word and each other character on a line of its
// own, so that a line diff of the result is a word diff.
func splitWords(s string) string {
	var b strings.Builder
	word := -1 // 1 in a word, 0 outside, -1 at the start
	for _, r := range s {
		w := 0
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 {
			w = 1
		}
		if word != -1 && w != word || w == 0 && word == 0 {
			b.WriteByte('\n')
		}
		b.WriteRune(r)
		word = w
	}
	return b.String()
}
