package render

import (
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// History renders a note's history, a commit a line, newest first.
func History(res *wiki.HistoryResult) string {
	var b Builder
	state := ""
	if !res.Exists {
		state = " (deleted)"
	}
	b.Line("History of %s%s: %s, newest first", res.Path, state, Plural(res.Total, "commit"))
	for _, r := range res.Revisions {
		what := string(r.Change)
		if r.OldPath != "" {
			what += " from " + r.OldPath
		}
		if r.RenameUnknown {
			what += ", or renamed: " + MissingVersion
		}
		b.Line("- %s %s %s: %s (%s, %s)", r.Short, Time(r.Date), r.Author, r.Subject, what, lines(r.Additions, r.Deletions, r.LinesUnknown))
	}
	if res.NextCursor != "" {
		b.Line("More: pass {cursor} %q.", res.NextCursor)
	}
	return b.String()
}

// DiffSummary renders what a diff changed, a file a line, without the
// diff itself.
func DiffSummary(res *wiki.DiffResult) string {
	var b Builder
	from := ShortID(res.From)
	if from == "" {
		from = "the empty tree"
	}
	b.Line("Diff from %s to %s: %s, +%d -%d", from, ShortID(res.To), Plural(len(res.Files), "file"), res.Additions, res.Deletions)
	for _, f := range res.Files {
		name := f.Path
		if f.OldFile != "" {
			name = f.OldFile + " → " + f.File
		}
		b.Line("- %s %s (%s)", f.Change, name, lines(f.Additions, f.Deletions, f.LinesUnknown))
	}
	if res.LinesUnknown {
		b.Line("Files whose lines are unknown are left out of the diff; `git cat-file -e <version>` in the repository fetches a missing version.")
	}
	return b.String()
}

// Diff renders a diff: its summary, then diff, the unified diff (as
// given: a front end may have cut it).
func Diff(res *wiki.DiffResult, diff string) string {
	s := DiffSummary(res)
	if diff != "" {
		s += "\n\n" + diff
	}
	return s
}

// Blame renders who last changed each run of a note's lines.
func Blame(res *wiki.BlameResult) string {
	var b Builder
	where := res.Path
	if res.Section != "" {
		where += ", section " + res.Section
	}
	b.Line("Blame of %s (%s) at %s:", where, Plural(res.Lines, "line"), ShortID(res.Commit))
	for _, r := range res.Ranges {
		span := fmt.Sprintf("line %d", r.Start)
		if r.End > r.Start {
			span = fmt.Sprintf("lines %d-%d", r.Start, r.End)
		}
		from := ""
		if r.OldPath != "" {
			from = " (as " + r.OldPath + ")"
		}
		if r.OriginUnknown {
			from += " (or an earlier commit: " + MissingVersion + ")"
		}
		b.Line("- %s: %s %s %s: %s%s", span, r.Short, Time(r.Date), r.Author, r.Subject, from)
	}
	return b.String()
}

// maxFilesShown is how many files of a commit Activity names; the
// structured result has them all, and a diff shows them.
const maxFilesShown = 8

// Activity renders a page of the wiki's commits, newest first, each with
// the files it changed.
func Activity(res *wiki.ActivityResult) string {
	var b Builder
	if res.Total == 0 {
		b.Line("No commits match.")
		return b.String()
	}
	b.Line("%s, newest first:", Plural(res.Total, "commit"))
	for _, c := range res.Commits {
		via := ""
		if c.Tool != "" {
			via = fmt.Sprintf(" via %s (%s)", c.Tool, c.Client)
		}
		counts := fmt.Sprintf("+%d -%d", c.Additions, c.Deletions)
		if c.LinesUnknown {
			counts += ", some lines unknown: " + MissingVersion
		}
		b.Line("- %s %s %s%s: %s (%s)", c.Short, Time(c.Date), c.Author, via, c.Subject, counts)
		var files []string
		shown := c.Files
		if len(shown) > maxFilesShown {
			shown = shown[:maxFilesShown-1]
		}
		for _, f := range shown {
			name := f.Path
			if f.OldPath != "" {
				name = f.OldPath + " → " + f.Path
			}
			if f.LinesUnknown {
				name += " (lines unknown)"
			}
			if f.RenameUnknown {
				name += " (or renamed)"
			}
			files = append(files, fmt.Sprintf("%s %s", f.Change, name))
		}
		if more := c.MoreFiles + len(c.Files) - len(shown); more > 0 {
			files = append(files, fmt.Sprintf("and %d more", more))
		}
		if c.FilesUnknown {
			files = append(files, "files unknown: "+MissingVersion)
		}
		if len(files) > 0 {
			b.Line("  %s", strings.Join(files, ", "))
		}
	}
	if res.NextCursor != "" {
		b.Line("More: pass {cursor} %q.", res.NextCursor)
	}
	return b.String()
}
