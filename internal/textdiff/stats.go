package textdiff

// Stats counts the lines a change adds and deletes. A rewritten line counts
// once as a deletion and once as an addition, as in `git diff --numstat`.
type Stats struct {
	Additions, Deletions int
}

// Count returns the lines added and deleted by turning old into new. Both
// may be empty; Count never fails.
func Count(old, new []byte) Stats {
	return countChanges(diffLines(splitLines(string(old)), splitLines(string(new))))
}

func countChanges(cs []change) Stats {
	var s Stats
	for _, c := range cs {
		s.Additions += c.Ins
		s.Deletions += c.Del
	}
	return s
}
