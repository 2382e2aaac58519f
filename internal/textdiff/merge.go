package textdiff

import (
	"slices"
	"strings"
)

// Span is a run of lines in one version of a text.
type Span struct {
	// Start is the 1-based number of the first line. An empty span sits
	// between lines Start-1 and Start.
	Start int
	// Count is the number of lines.
	Count int
	// Text is the lines themselves, with their newlines.
	Text []byte
}

// Conflict is a region that both sides of a merge changed differently: the
// lines of the base and what each side made of them.
type Conflict struct {
	Base, Ours, Theirs Span
}

// Merge3 is a line-based three-way merge: it applies the change from base to
// theirs onto ours and returns the merged text.
//
// It follows `git merge-file`: a region changed on one side only takes that
// side's lines; a region both sides changed the same way is taken once; a
// change on one side that overlaps or touches (with no unchanged base line
// between them) a change on the other side is a conflict. Adjacent
// conflicting changes form one Conflict. With theirs equal to base the result
// is ours, and with ours equal to base it is theirs.
//
// If there are conflicts, Merge3 returns no merged text, the conflicts in
// order, and ErrConflict.
func Merge3(base, ours, theirs []byte) ([]byte, []Conflict, error) {
	return merge3(base, ours, theirs, false)
}

// Merge3Additions is Merge3, except where both sides only added lines at
// the same place, which Merge3 calls a conflict: it keeps both, ours' lines
// first, then theirs' (with a newline between them when ours' last line
// has none), or once where one side's lines begin with all of the
// other's. Two people appending to one note merge this way; a region
// that either side changed or removed still conflicts.
func Merge3Additions(base, ours, theirs []byte) ([]byte, []Conflict, error) {
	return merge3(base, ours, theirs, true)
}

func merge3(base, ours, theirs []byte, keepAdditions bool) ([]byte, []Conflict, error) {
	b := splitLines(string(base))
	o := splitLines(string(ours))
	t := splitLines(string(theirs))
	co, ct := diffLines(b, o), diffLines(b, t)

	var (
		out       strings.Builder
		conflicts []Conflict
		pos       int // next base line to copy
		dOurs     int // ours line number minus base line number before pos
		dTheirs   int
	)
	for len(co) > 0 || len(ct) > 0 {
		// Gather a group of changes from either side that overlap or touch,
		// starting with the earliest.
		start := -1
		if len(co) > 0 {
			start = co[0].A
		}
		if len(ct) > 0 && (start < 0 || ct[0].A < start) {
			start = ct[0].A
		}
		end := start
		var gOurs, gTheirs []change
		for {
			switch {
			case len(co) > 0 && co[0].A <= end:
				end = max(end, co[0].A+co[0].Del)
				gOurs, co = append(gOurs, co[0]), co[1:]
				continue
			case len(ct) > 0 && ct[0].A <= end:
				end = max(end, ct[0].A+ct[0].Del)
				gTheirs, ct = append(gTheirs, ct[0]), ct[1:]
				continue
			}
			break
		}
		// The group replaces base lines [start, end); each side's version of
		// them starts where the side's earlier changes left its offset.
		oStart, oEnd := start+dOurs, end+dOurs+shift(gOurs)
		tStart, tEnd := start+dTheirs, end+dTheirs+shift(gTheirs)
		writeLines(&out, b[pos:start])
		switch {
		case len(gTheirs) == 0 || slices.Equal(o[oStart:oEnd], t[tStart:tEnd]):
			writeLines(&out, o[oStart:oEnd])
		case len(gOurs) == 0:
			writeLines(&out, t[tStart:tEnd])
		case keepAdditions && start == end && slices.Equal(o[oStart:min(oEnd, oStart+tEnd-tStart)], t[tStart:tEnd]):
			writeLines(&out, o[oStart:oEnd]) // theirs added the first of ours' lines
		case keepAdditions && start == end && slices.Equal(t[tStart:min(tEnd, tStart+oEnd-oStart)], o[oStart:oEnd]):
			writeLines(&out, t[tStart:tEnd])
		case keepAdditions && start == end:
			writeLines(&out, o[oStart:oEnd])
			if s := out.String(); s != "" && !strings.HasSuffix(s, "\n") {
				out.WriteByte('\n')
			}
			writeLines(&out, t[tStart:tEnd])
		default:
			conflicts = append(conflicts, Conflict{
				Base:   span(b, start, end),
				Ours:   span(o, oStart, oEnd),
				Theirs: span(t, tStart, tEnd),
			})
		}
		pos = end
		dOurs, dTheirs = oEnd-end, tEnd-end
	}
	if len(conflicts) > 0 {
		return nil, conflicts, ErrConflict
	}
	writeLines(&out, b[pos:])
	return []byte(out.String()), nil, nil
}

// shift returns how many lines the changes add to a text, net.
func shift(cs []change) int {
	n := 0
	for _, c := range cs {
		n += c.Ins - c.Del
	}
	return n
}

func span(lines []string, start, end int) Span {
	var b strings.Builder
	writeLines(&b, lines[start:end])
	return Span{Start: start + 1, Count: end - start, Text: []byte(b.String())}
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l)
	}
}
