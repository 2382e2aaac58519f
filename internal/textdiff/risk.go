package textdiff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Risk says how much of the existing content a change could lose.
type Risk string

// The risk levels, from the file of a change that removes the most. A line
// counts as removed when the change deletes or rewrites it (a deletion in
// Stats); the share is taken of the file's old lines.
const (
	// Low: creates files, renames them unchanged, only adds lines, or removes
	// less than 10% of a file's lines.
	Low Risk = "low"
	// Medium: removes from 10% up to 50% of a file's lines, and at most 100.
	Medium Risk = "medium"
	// High: deletes a file, or removes more than half of a file's lines or
	// more than 100 of them.
	High Risk = "high"
)

// rank orders the levels.
func (r Risk) rank() int {
	switch r {
	case High:
		return 2
	case Medium:
		return 1
	}
	return 0
}

// maxListed is how many notable files a summary names before "and N more".
const maxListed = 3

// Assess returns the risk of a change to files, the highest of any file's,
// and a one-line summary such as "2 files: +12 -3 lines; deletes
// projects/old.md". The summary names created, deleted and renamed files and
// files with medium or high risk, riskiest first. Files whose path and content
// are unchanged are not counted; with none left Assess returns Low and "no
// changes". Assess never fails.
func Assess(files []FileDiff) (Risk, string) {
	type note struct {
		risk Risk
		text string
	}
	var (
		total Stats
		n     int
		notes []note
	)
	risk := Low
	for _, f := range files {
		r, st, text, changed := assessFile(f)
		if !changed {
			continue
		}
		n++
		total.Additions += st.Additions
		total.Deletions += st.Deletions
		if r.rank() > risk.rank() {
			risk = r
		}
		if text != "" {
			notes = append(notes, note{r, text})
		}
	}
	if n == 0 {
		return Low, "no changes"
	}
	slices.SortStableFunc(notes, func(x, y note) int { return y.risk.rank() - x.risk.rank() })
	var b strings.Builder
	b.WriteString(strconv.Itoa(n) + " file")
	if n != 1 {
		b.WriteString("s")
	}
	fmt.Fprintf(&b, ": +%d -%d lines", total.Additions, total.Deletions)
	for i, nt := range notes {
		if i == maxListed {
			fmt.Fprintf(&b, "; and %d more", len(notes)-maxListed)
			break
		}
		b.WriteString("; " + nt.text)
	}
	return risk, b.String()
}

// assessFile returns the risk and stats of one file's change, a note for the
// summary if the file is worth naming, and whether it changed at all.
func assessFile(f FileDiff) (risk Risk, st Stats, text string, changed bool) {
	oldText, newText := string(f.Old), string(f.New)
	switch {
	case f.OldPath == "" && f.NewPath == "":
		return Low, Stats{}, "", false
	case f.OldPath == "":
		oldText = ""
	case f.NewPath == "":
		newText = ""
	case f.OldPath == f.NewPath && oldText == newText:
		return Low, Stats{}, "", false
	}
	a := splitLines(oldText)
	st = countChanges(diffLines(a, splitLines(newText)))
	switch {
	case f.OldPath == "":
		return Low, st, "creates " + f.NewPath, true
	case f.NewPath == "":
		return High, st, "deletes " + f.OldPath, true
	}
	removed, lines := st.Deletions, len(a)
	switch {
	case removed > 100 || 2*removed > lines:
		risk = High
	case 10*removed >= lines && removed > 0:
		risk = Medium
	default:
		risk = Low
	}
	if risk != Low {
		text = fmt.Sprintf("removes or rewrites %d of %d lines of %s", removed, lines, f.NewPath)
	}
	if f.OldPath != f.NewPath {
		rename := "renames " + f.OldPath + " to " + f.NewPath
		if text == "" {
			text = rename
		} else {
			text = rename + " and " + text
		}
	}
	return risk, st, text, true
}
