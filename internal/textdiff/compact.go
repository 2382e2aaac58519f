package textdiff

// A diff often has a choice of where to put a run of inserted or deleted
// lines: deleting one of three equal lines can delete any of them. compact
// makes the choice the way git's xdiff does without its indent heuristic, so
// that diffs are canonical and merges line up with git merge-file's: it
// slides each group of changed lines of one text as far down as it goes,
// joining groups it runs into, and then back up to the last place where it
// faces a group of changed lines in the other text, if it passed one.

// side is one text of a diff: its lines and which of them are changed
// (deleted from the old text, inserted into the new one). The unchanged lines
// of the two sides pair up in order.
type side struct {
	lines   []string
	changed []bool
}

// group is a maximal run [start, end) of changed lines; it may be empty. The
// k-th group of one side sits between the same two unchanged lines as the
// k-th group of the other.
type group struct{ start, end int }

func (s *side) isChanged(i int) bool {
	return i >= 0 && i < len(s.changed) && s.changed[i]
}

// first returns the group before the first unchanged line.
func (s *side) first() group {
	var g group
	for s.isChanged(g.end) {
		g.end++
	}
	return g
}

// next moves g to the group after the unchanged line that ends it, and
// reports false if there is none.
func (s *side) next(g *group) bool {
	if g.end >= len(s.lines) {
		return false
	}
	g.start = g.end + 1
	g.end = g.start
	for s.isChanged(g.end) {
		g.end++
	}
	return true
}

// prev moves g to the group before the unchanged line that starts it, and
// reports false if there is none.
func (s *side) prev(g *group) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	g.start = g.end
	for s.isChanged(g.start - 1) {
		g.start--
	}
	return true
}

// slideDown moves a non-empty group one line down if the line after it
// equals its first line, taking in the group it then touches.
func (s *side) slideDown(g *group) bool {
	if g.end >= len(s.lines) || s.lines[g.start] != s.lines[g.end] {
		return false
	}
	s.changed[g.start], s.changed[g.end] = false, true
	g.start++
	g.end++
	for s.isChanged(g.end) {
		g.end++
	}
	return true
}

// slideUp moves a non-empty group one line up if the line before it equals
// its last line, taking in the group it then touches.
func (s *side) slideUp(g *group) bool {
	if g.start == 0 || s.lines[g.start-1] != s.lines[g.end-1] {
		return false
	}
	g.start--
	g.end--
	s.changed[g.start], s.changed[g.end] = true, false
	for s.isChanged(g.start - 1) {
		g.start--
	}
	return true
}

// compact slides the groups of s, keeping the groups of the other side o in
// step.
func compact(s, o *side) {
	g, og := s.first(), o.first()
	for {
		if g.end > g.start {
			var earliestEnd, endFacingOther int
			for {
				size := g.end - g.start
				endFacingOther = -1
				for s.slideUp(&g) {
					o.prev(&og)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endFacingOther = g.end
				}
				for s.slideDown(&g) {
					o.next(&og)
					if og.end > og.start {
						endFacingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			if g.end != earliestEnd && endFacingOther != -1 {
				for og.end == og.start {
					s.slideUp(&g)
					o.prev(&og)
				}
			}
		}
		if !s.next(&g) {
			return
		}
		o.next(&og)
	}
}
