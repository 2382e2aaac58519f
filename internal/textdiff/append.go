package textdiff

import "strings"

// AppendAdded merges theirs into ours where theirs only added lines to
// base, as an editor appending to an old copy of a text does: when theirs
// holds every line of base (as many times), it returns ours with the lines
// theirs added, those ours does not hold already (beyond base's count),
// appended at its end in theirs' order, and true. Otherwise it returns
// ours and false. Lines are compared without their final newline.
func AppendAdded(base, ours, theirs []byte) ([]byte, bool) {
	count := func(text []byte) map[string]int {
		n := map[string]int{}
		for _, l := range splitLines(string(text)) {
			n[strings.TrimSuffix(l, "\n")]++
		}
		return n
	}
	left, inBase, inOurs := count(base), count(base), count(ours)
	var added []string
	for _, l := range splitLines(string(theirs)) {
		if l = strings.TrimSuffix(l, "\n"); left[l] > 0 {
			left[l]--
		} else {
			added = append(added, l)
		}
	}
	for _, n := range left {
		if n > 0 {
			return ours, false // theirs removed a line of base
		}
	}
	out := append([]byte(nil), ours...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	for _, l := range added {
		if inOurs[l] > inBase[l] {
			inOurs[l]-- // ours has it too
			continue
		}
		out = append(out, l+"\n"...)
	}
	return out, true
}

// SavedFrom reports whether cur was saved from base rather than from
// given, a later version of it: the change from base to given only adds
// lines, and cur has none of them (beyond as many as base has).
func SavedFrom(base, given, cur []byte) bool {
	count := func(text []byte) map[string]int {
		n := map[string]int{}
		for _, l := range strings.SplitAfter(string(text), "\n") {
			n[strings.TrimSuffix(l, "\n")]++
		}
		return n
	}
	b, g, c := count(base), count(given), count(cur)
	added := false
	for l, n := range g {
		if n < b[l] {
			return false // given removed a line
		}
		if n > b[l] {
			if c[l] > b[l] {
				return false // cur has it
			}
			added = true
		}
	}
	for l, n := range b {
		if g[l] < n {
			return false
		}
	}
	return added
}
