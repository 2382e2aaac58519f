package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// The history tools' read side: note_history, diff_versions, blame_note
// and activity_log, answered from the per-path history index.

// maxDiffChars is how much of a diff a result carries; more is cut.
const maxDiffChars = 20000

// changeKinds are the values of a change kind.
var changeKinds = []string{string(wiki.ChangeAdded), string(wiki.ChangeModified), string(wiki.ChangeDeleted), string(wiki.ChangeRenamed)}

// lineCount describes an added or deleted line count.
func lineCount(desc string) *schema {
	return integer(desc+" -1 for a binary file; 0 when lines_unknown is set.", -1, 1e9)
}

// linesUnknown and renameUnknown describe the marks of what a version
// missing from the repository (a partial clone) left unknown.
var (
	linesUnknown = boolean("Set when a version the line counts need is missing from this repository (a partial clone, " +
		"or a damaged repository): the counts are unknown, not zero.")
	renameUnknown = boolean("Set on an addition when a missing version kept rename detection to identical content: " +
		"the note may have been renamed from a file this commit deleted.")
)

// missingNote is what the text says about a version missing from the
// repository.
const missingNote = "a version is missing from this repository (a partial clone?)"

type historyArgs struct {
	Path          string `json:"path"`
	FollowRenames *bool  `json:"follow_renames"`
	Limit         int    `json:"limit"`
	Cursor        string `json:"cursor"`
}

func noteHistoryTool() *tool {
	in := object("",
		pathProp,
		opt("follow_renames", boolean("").def(true)),
		opt("limit", integer("", 1, wiki.MaxHistoryLimit).def(wiki.DefaultHistoryLimit)),
		cursorProp,
	)
	return &tool{
		name: "note_history", group: GroupHistory, title: "History of a note", idempotent: true,
		description: "Commits that changed a note (even a deleted one), newest first. Use it to find old versions.",
		input:       in,
		output: object("One page of the note's history.",
			req("path", str("The note's path.")),
			req("file", str("The file in the repository.")),
			req("exists", boolean("False when the note was deleted.")),
			req("revisions", arrayOf("Commits, newest first.", object("",
				req("commit", str("Full commit sha: pass it as version to read_note, restore_note or diff_versions.")),
				req("short", str("Abbreviated sha.")),
				req("date", dateTime("")),
				req("author", str("Author as Name <email>.")),
				req("subject", str("First line of the commit message.")),
				req("change", enum("What the commit did to the note.", changeKinds...)),
				req("path", str("The note's path in this commit.")),
				opt("old_path", str("Its path before a rename.")),
				opt("version", str("The note's version after the commit; absent when it deleted the note.")),
				req("additions", lineCount("Lines added.")),
				req("deletions", lineCount("Lines deleted.")),
				opt("lines_unknown", linesUnknown),
				opt("rename_unknown", renameUnknown),
				opt("tool", str("The wikid tool that made the commit.")),
				opt("client", str("The client that made the commit.")),
			))),
			req("total", integer("How many commits the history holds.", 0, 1e9)),
			opt("next_cursor", str("Pass as cursor to get the next page; absent on the last page.")),
		),
		run: bind(in, runNoteHistory),
	}
}

func runNoteHistory(ctx context.Context, s *Env, a *historyArgs) (any, string, error) {
	res, err := s.Wiki.History(ctx, wiki.HistoryRequest{Path: a.Path, NoFollow: a.FollowRenames != nil && !*a.FollowRenames,
		Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return nil, "", err
	}
	var b textBuilder
	state := ""
	if !res.Exists {
		state = " (deleted)"
	}
	b.line("History of %s%s: %s, newest first", res.Path, state, plural(res.Total, "commit"))
	for _, r := range res.Revisions {
		what := string(r.Change)
		if r.OldPath != "" {
			what += " from " + r.OldPath
		}
		if r.RenameUnknown {
			what += ", or renamed: " + missingNote
		}
		b.line("- %s %s %s: %s (%s, %s)", r.Short, fmtTime(r.Date), r.Author, r.Subject, what, lines(r.Additions, r.Deletions, r.LinesUnknown))
	}
	if res.NextCursor != "" {
		b.line("More: call again with cursor %q.", res.NextCursor)
	}
	return res, b.String(), nil
}

// lines renders added and deleted line counts.
func lines(add, del int, unknown bool) string {
	switch {
	case unknown:
		return "lines unknown: " + missingNote
	case add < 0:
		return "binary"
	}
	return fmt.Sprintf("+%d -%d", add, del)
}

type diffArgs struct {
	Path    string `json:"path"`
	From    string `json:"from"`
	To      string `json:"to"`
	Context *int   `json:"context"`
}

func diffVersionsTool() *tool {
	in := object("",
		opt("path", &schema{Type: "string", MinLength: ptr(1)}),
		opt("from", str("")),
		opt("to", str("")),
		opt("context", integer("", 0, 1000).def(wiki.DefaultDiffContext)),
	)
	return &tool{
		name: "diff_versions", group: GroupHistory, title: "Diff two versions", idempotent: true,
		description: "Diff of path (or all notes) from commit from (default: to's parent) to to (default: HEAD); path alone: " +
			"its last change. Use it to inspect a change.",
		input: in,
		output: object("The diff.",
			req("from", str("The older commit; empty for the empty tree (before the first commit).")),
			req("to", str("The newer commit.")),
			req("files", arrayOf("The files that differ.", object("",
				req("path", str("Note path (the file, for a file that is not a note).")),
				req("file", str("The file in the newer version (the old file for a deletion).")),
				opt("old_file", str("The file in the older version, when it was renamed.")),
				req("change", enum("", changeKinds...)),
				req("additions", lineCount("Lines added.")),
				req("deletions", lineCount("Lines deleted.")),
				opt("binary", boolean("A binary file, left out of the diff.")),
				opt("lines_unknown", boolean("Set when a version of the file is missing from this repository (a partial "+
					"clone): the file is left out of the diff and its counts are unknown, not zero.")),
			))),
			req("additions", integer("Lines added, over all files.", 0, 1e9)),
			req("deletions", integer("Lines deleted, over all files.", 0, 1e9)),
			req("diff", str("The unified diff; git apply reproduces the newer version from it.")),
			opt("truncated", boolean("Set when the diff was cut.")),
			opt("lines_unknown", boolean("Set when some file's versions are missing from this repository: those files are "+
				"left out of the diff and of the counts.")),
		),
		run: bind(in, runDiffVersions),
	}
}

// diffOutput is a diff with the truncation mark.
type diffOutput struct {
	*wiki.DiffResult
	Truncated bool `json:"truncated,omitempty"`
}

func runDiffVersions(ctx context.Context, s *Env, a *diffArgs) (any, string, error) {
	ctxLines := 0 // the default
	if a.Context != nil {
		ctxLines = *a.Context
		if ctxLines == 0 {
			ctxLines = -1 // none
		}
	}
	res, err := s.Wiki.Diff(ctx, wiki.DiffRequest{Path: a.Path, From: a.From, To: a.To, Context: ctxLines})
	if err != nil {
		return nil, "", err
	}
	out := &diffOutput{DiffResult: res}
	out.Diff, out.Truncated = clip(res.Diff, maxDiffChars)
	var b textBuilder
	from := shortID(res.From)
	if from == "" {
		from = "the empty tree"
	}
	b.line("Diff from %s to %s: %s, +%d -%d", from, shortID(res.To), plural(len(res.Files), "file"), res.Additions, res.Deletions)
	for _, f := range res.Files {
		name := f.Path
		if f.OldFile != "" {
			name = f.OldFile + " → " + f.File
		}
		b.line("- %s %s (%s)", f.Change, name, lines(f.Additions, f.Deletions, f.LinesUnknown))
	}
	if res.LinesUnknown {
		b.line("Files whose lines are unknown are left out of the diff; `git cat-file -e <version>` in the repository fetches a missing version.")
	}
	if out.Diff != "" {
		b.line("")
		b.WriteString(out.Diff)
	}
	return out, b.String(), nil
}

type blameArgs struct {
	Path    string `json:"path"`
	Section string `json:"section"`
}

func blameNoteTool() *tool {
	in := object("",
		pathProp,
		opt("section", str("")),
	)
	return &tool{
		name: "blame_note", group: GroupHistory, title: "Who changed each line", idempotent: true,
		description: "Who last changed each line of a note or section. Use it to trace a statement.",
		input:       in,
		output: object("Line ranges, in order.",
			req("path", str("Note path.")),
			req("file", str("The file in the repository.")),
			req("commit", str("The commit the note was blamed at (HEAD).")),
			req("version", str("The note's version.")),
			opt("section", str("The section's heading.")),
			req("lines", integer("How many lines the ranges cover.", 0, 1e9)),
			req("ranges", arrayOf("Runs of lines last changed by one commit.", object("",
				req("start", integer("First line (1-based).", 1, 1e9)),
				req("end", integer("Last line, inclusive.", 1, 1e9)),
				req("commit", str("Full commit sha.")),
				req("short", str("Abbreviated sha.")),
				req("author", str("Author as Name <email>.")),
				req("date", dateTime("")),
				req("subject", str("First line of the commit message.")),
				opt("old_path", str("The note's path in that commit, when it was renamed since.")),
				opt("origin_unknown", boolean("Set when the note's older version that might hold these lines is missing from "+
					"this repository (a partial clone): this commit or an earlier one last changed them.")),
			))),
		),
		run: bind(in, runBlame),
	}
}

func runBlame(ctx context.Context, s *Env, a *blameArgs) (any, string, error) {
	res, err := s.Wiki.Blame(ctx, wiki.BlameRequest{Path: a.Path, Section: a.Section})
	if err != nil {
		return nil, "", err
	}
	var b textBuilder
	where := res.Path
	if res.Section != "" {
		where += ", section " + res.Section
	}
	b.line("Blame of %s (%s) at %s:", where, plural(res.Lines, "line"), shortID(res.Commit))
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
			from += " (or an earlier commit: " + missingNote + ")"
		}
		b.line("- %s: %s %s %s: %s%s", span, r.Short, fmtTime(r.Date), r.Author, r.Subject, from)
	}
	return res, b.String(), nil
}

type activityArgs struct {
	Limit  int    `json:"limit"`
	Cursor string `json:"cursor"`
	Since  string `json:"since"`
	Until  string `json:"until"`
	Author string `json:"author"`
	Folder string `json:"folder"`
	Path   string `json:"path"`
	Tool   string `json:"tool"`
}

func activityLogTool() *tool {
	in := object("",
		opt("limit", integer("", 1, wiki.MaxActivityLimit).def(wiki.DefaultActivityLimit)),
		cursorProp,
		opt("since", str("")),
		opt("until", str("")),
		opt("author", str("")),
		folderProp,
		opt("path", str("")),
		opt("tool", str("")),
	)
	return &tool{
		name: "activity_log", group: GroupHistory, title: "Activity log", idempotent: true,
		description: "Wiki commits, newest first, with author, tool and notes. Use it to review changes; note_history for " +
			"one note.",
		input: in,
		output: object("One page of commits, newest first.",
			req("commits", arrayOf("", object("",
				req("commit", str("Full commit sha.")),
				req("short", str("Abbreviated sha.")),
				req("date", dateTime("")),
				req("author", str("Author as Name <email>.")),
				opt("client", str("The client that made the change through wikid.")),
				opt("tool", str("The wikid tool that made it.")),
				req("subject", str("First line of the commit message.")),
				opt("merge", boolean("A merge commit; its files are compared with its first parent.")),
				req("files", arrayOf("The files it changed.", object("",
					req("path", str("Note path (the file, for a file that is not a note).")),
					opt("old_path", str("The path before a rename.")),
					req("change", enum("", changeKinds...)),
					req("additions", lineCount("Lines added.")),
					req("deletions", lineCount("Lines deleted.")),
					opt("lines_unknown", linesUnknown),
					opt("rename_unknown", renameUnknown),
				))),
				opt("more_files", integer("Files left out of files.", 0, 1e9)),
				opt("files_unknown", boolean("Set, with files empty, when a tree the commit's diff needs is missing from this "+
					"repository (a treeless partial clone): what it changed is unknown.")),
				req("additions", integer("Lines added over all files.", 0, 1e9)),
				req("deletions", integer("Lines deleted over all files.", 0, 1e9)),
				opt("lines_unknown", boolean("Set when some file's line counts are unknown (a version is missing from this "+
					"repository): additions and deletions count the other files.")),
			))),
			req("total", integer("How many commits match in all.", 0, 1e9)),
			opt("next_cursor", str("Pass as cursor to get the next page; absent on the last page.")),
		),
		run: bind(in, runActivity),
	}
}

func runActivity(ctx context.Context, s *Env, a *activityArgs) (any, string, error) {
	since, err := parseSince(s, "since", a.Since)
	if err != nil {
		return nil, "", err
	}
	until, err := parseUntil(s, "until", a.Until)
	if err != nil {
		return nil, "", err
	}
	res, err := s.Wiki.Activity(ctx, wiki.ActivityRequest{Since: since, Until: until, Author: a.Author, Folder: a.Folder,
		Path: a.Path, Tool: a.Tool, Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return nil, "", err
	}
	var b textBuilder
	b.line("%s, newest first:", plural(res.Total, "commit"))
	for _, c := range res.Commits {
		via := ""
		if c.Tool != "" {
			via = fmt.Sprintf(" via %s (%s)", c.Tool, c.Client)
		}
		counts := fmt.Sprintf("+%d -%d", c.Additions, c.Deletions)
		if c.LinesUnknown {
			counts += ", some lines unknown: " + missingNote
		}
		b.line("- %s %s %s%s: %s (%s)", c.Short, fmtTime(c.Date), c.Author, via, c.Subject, counts)
		var files []string
		for _, f := range c.Files {
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
		if c.MoreFiles > 0 {
			files = append(files, fmt.Sprintf("and %d more", c.MoreFiles))
		}
		if c.FilesUnknown {
			files = append(files, "files unknown: "+missingNote)
		}
		if len(files) > 0 {
			b.line("  %s", strings.Join(files, ", "))
		}
	}
	if res.NextCursor != "" {
		b.line("More: call again with cursor %q.", res.NextCursor)
	}
	return res, b.String(), nil
}
