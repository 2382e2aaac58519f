package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// The history tools' read side: note_history, diff_versions, blame_note
// and activity_log, answered from the per-path history index.

// maxDiffChars is how much of a diff a result carries; more is cut.
const maxDiffChars = 20000

// changeKinds are the values of a change kind.
var changeKinds = []string{string(wiki.ChangeAdded), string(wiki.ChangeModified), string(wiki.ChangeDeleted), string(wiki.ChangeRenamed)}

// lineCount describes an added or deleted line count.
func lineCount(desc string) *tool.Schema {
	return tool.Integer(desc+" -1 for a binary file; 0 when lines_unknown is set.", -1, 1e9)
}

// linesUnknown and renameUnknown describe the marks of what a version
// missing from the repository (a partial clone) left unknown.
var (
	linesUnknown = tool.Boolean("Set when a version the line counts need is missing from this repository (a partial clone, " +
		"or a damaged repository): the counts are unknown, not zero.")
	renameUnknown = tool.Boolean("Set on an addition when a missing version kept rename detection to identical content: " +
		"the note may have been renamed from a file this commit deleted.")
)

type historyArgs struct {
	Path          string `json:"path"`
	FollowRenames *bool  `json:"follow_renames"`
	Limit         int    `json:"limit"`
	Cursor        string `json:"cursor"`
}

func noteHistoryTool() *tool.Tool {
	in := tool.Object("",
		pathProp,
		tool.Opt("follow_renames", tool.Boolean("").Def(true)),
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxHistoryLimit).Def(wiki.DefaultHistoryLimit)),
		cursorProp,
	)
	return &tool.Tool{
		Name: "note_history", Group: tool.GroupHistory, Title: "History of a note", Idempotent: true,
		Description: "Commits that changed a note (even a deleted one), newest first. Use it to find old versions.",
		Input:       in,
		Output: tool.Object("One page of the note's history.",
			tool.Req("path", tool.Str("The note's path.")),
			tool.Req("file", tool.Str("The file in the repository.")),
			tool.Req("exists", tool.Boolean("False when the note was deleted.")),
			tool.Req("revisions", tool.ArrayOf("Commits, newest first.", tool.Object("",
				tool.Req("commit", tool.Str("Full commit sha: pass it as version to read_note, restore_note or diff_versions.")),
				tool.Req("short", tool.Str("Abbreviated sha.")),
				tool.Req("date", dateTime("")),
				tool.Req("author", tool.Str("Author as Name <email>.")),
				tool.Req("subject", tool.Str("First line of the commit message.")),
				tool.Req("change", tool.Enum("What the commit did to the note.", changeKinds...)),
				tool.Req("path", tool.Str("The note's path in this commit.")),
				tool.Opt("old_path", tool.Str("Its path before a rename.")),
				tool.Opt("version", tool.Str("The note's version after the commit; absent when it deleted the note.")),
				tool.Req("additions", lineCount("Lines added.")),
				tool.Req("deletions", lineCount("Lines deleted.")),
				tool.Opt("lines_unknown", linesUnknown),
				tool.Opt("rename_unknown", renameUnknown),
				tool.Opt("tool", tool.Str("The wikid tool that made the commit.")),
				tool.Opt("client", tool.Str("The client that made the commit.")),
			))),
			tool.Req("total", tool.Integer("How many commits the history holds.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		),
		Run: tool.Bind(in, runNoteHistory),
	}
}

func runNoteHistory(ctx context.Context, s *tool.Env, a *historyArgs) (any, string, error) {
	res, err := s.Wiki.History(ctx, wiki.HistoryRequest{Path: a.Path, NoFollow: a.FollowRenames != nil && !*a.FollowRenames,
		Limit: a.Limit, Cursor: a.Cursor})
	if err != nil {
		return nil, "", err
	}
	return res, render.History(res), nil
}

type diffArgs struct {
	Path    string `json:"path"`
	From    string `json:"from"`
	To      string `json:"to"`
	Context *int   `json:"context"`
}

func diffVersionsTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("path", &tool.Schema{Type: "string", MinLength: tool.Ptr(1)}),
		tool.Opt("from", tool.Str("")),
		tool.Opt("to", tool.Str("")),
		tool.Opt("context", tool.Integer("", 0, 1000).Def(wiki.DefaultDiffContext)),
	)
	return &tool.Tool{
		Name: "diff_versions", Group: tool.GroupHistory, Title: "Diff two versions", Idempotent: true,
		Description: "Diff of path (or all notes) from commit from (default: to's parent) to to (default: HEAD); path alone: " +
			"its last change. Use it to inspect a change.",
		Input: in,
		Output: tool.Object("The diff.",
			tool.Req("from", tool.Str("The older commit; empty for the empty tree (before the first commit).")),
			tool.Req("to", tool.Str("The newer commit.")),
			tool.Req("files", tool.ArrayOf("The files that differ.", tool.Object("",
				tool.Req("path", tool.Str("Note path (the file, for a file that is not a note).")),
				tool.Req("file", tool.Str("The file in the newer version (the old file for a deletion).")),
				tool.Opt("old_file", tool.Str("The file in the older version, when it was renamed.")),
				tool.Req("change", tool.Enum("", changeKinds...)),
				tool.Req("additions", lineCount("Lines added.")),
				tool.Req("deletions", lineCount("Lines deleted.")),
				tool.Opt("binary", tool.Boolean("A binary file, left out of the diff.")),
				tool.Opt("lines_unknown", tool.Boolean("Set when a version of the file is missing from this repository (a partial "+
					"clone): the file is left out of the diff and its counts are unknown, not zero.")),
			))),
			tool.Req("additions", tool.Integer("Lines added, over all files.", 0, 1e9)),
			tool.Req("deletions", tool.Integer("Lines deleted, over all files.", 0, 1e9)),
			tool.Req("diff", tool.Str("The unified diff; git apply reproduces the newer version from it.")),
			tool.Opt("truncated", tool.Boolean("Set when the diff was cut.")),
			tool.Opt("lines_unknown", tool.Boolean("Set when some file's versions are missing from this repository: those files are "+
				"left out of the diff and of the counts.")),
		),
		Run: tool.Bind(in, runDiffVersions),
	}
}

// diffOutput is a diff with the truncation mark.
type diffOutput struct {
	*wiki.DiffResult
	Truncated bool `json:"truncated,omitempty"`
}

func runDiffVersions(ctx context.Context, s *tool.Env, a *diffArgs) (any, string, error) {
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
	out.Diff, out.Truncated = tool.Clip(res.Diff, maxDiffChars)
	return out, render.Diff(res, out.Diff), nil
}

type blameArgs struct {
	Path    string `json:"path"`
	Section string `json:"section"`
}

func blameNoteTool() *tool.Tool {
	in := tool.Object("",
		pathProp,
		tool.Opt("section", tool.Str("")),
	)
	return &tool.Tool{
		Name: "blame_note", Group: tool.GroupHistory, Title: "Who changed each line", Idempotent: true,
		Description: "Who last changed each line of a note or section. Use it to trace a statement.",
		Input:       in,
		Output: tool.Object("Line ranges, in order.",
			tool.Req("path", tool.Str("Note path.")),
			tool.Req("file", tool.Str("The file in the repository.")),
			tool.Req("commit", tool.Str("The commit the note was blamed at (HEAD).")),
			tool.Req("version", tool.Str("The note's version.")),
			tool.Opt("section", tool.Str("The section's heading.")),
			tool.Req("lines", tool.Integer("How many lines the ranges cover.", 0, 1e9)),
			tool.Req("ranges", tool.ArrayOf("Runs of lines last changed by one commit.", tool.Object("",
				tool.Req("start", tool.Integer("First line (1-based).", 1, 1e9)),
				tool.Req("end", tool.Integer("Last line, inclusive.", 1, 1e9)),
				tool.Req("commit", tool.Str("Full commit sha.")),
				tool.Req("short", tool.Str("Abbreviated sha.")),
				tool.Req("author", tool.Str("Author as Name <email>.")),
				tool.Req("date", dateTime("")),
				tool.Req("subject", tool.Str("First line of the commit message.")),
				tool.Opt("old_path", tool.Str("The note's path in that commit, when it was renamed since.")),
				tool.Opt("origin_unknown", tool.Boolean("Set when the note's older version that might hold these lines is missing from "+
					"this repository (a partial clone): this commit or an earlier one last changed them.")),
			))),
		),
		Run: tool.Bind(in, runBlame),
	}
}

func runBlame(ctx context.Context, s *tool.Env, a *blameArgs) (any, string, error) {
	res, err := s.Wiki.Blame(ctx, wiki.BlameRequest{Path: a.Path, Section: a.Section})
	if err != nil {
		return nil, "", err
	}
	return res, render.Blame(res), nil
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

func activityLogTool() *tool.Tool {
	in := tool.Object("",
		tool.Opt("limit", tool.Integer("", 1, wiki.MaxActivityLimit).Def(wiki.DefaultActivityLimit)),
		cursorProp,
		tool.Opt("since", tool.Str("")),
		tool.Opt("until", tool.Str("")),
		tool.Opt("author", tool.Str("")),
		folderProp,
		tool.Opt("path", tool.Str("")),
		tool.Opt("tool", tool.Str("")),
	)
	return &tool.Tool{
		Name: "activity_log", Group: tool.GroupHistory, Title: "Activity log", Idempotent: true,
		Description: "Wiki commits, newest first, with author, tool and notes. Use it to review changes; note_history for " +
			"one note.",
		Input: in,
		Output: tool.Object("One page of commits, newest first.",
			tool.Req("commits", tool.ArrayOf("", tool.Object("",
				tool.Req("commit", tool.Str("Full commit sha.")),
				tool.Req("short", tool.Str("Abbreviated sha.")),
				tool.Req("date", dateTime("")),
				tool.Req("author", tool.Str("Author as Name <email>.")),
				tool.Opt("client", tool.Str("The client that made the change through wikid.")),
				tool.Opt("tool", tool.Str("The wikid tool that made it.")),
				tool.Req("subject", tool.Str("First line of the commit message.")),
				tool.Opt("merge", tool.Boolean("A merge commit; its files are compared with its first parent.")),
				tool.Req("files", tool.ArrayOf("The files it changed.", tool.Object("",
					tool.Req("path", tool.Str("Note path (the file, for a file that is not a note).")),
					tool.Opt("old_path", tool.Str("The path before a rename.")),
					tool.Req("change", tool.Enum("", changeKinds...)),
					tool.Req("additions", lineCount("Lines added.")),
					tool.Req("deletions", lineCount("Lines deleted.")),
					tool.Opt("lines_unknown", linesUnknown),
					tool.Opt("rename_unknown", renameUnknown),
				))),
				tool.Opt("more_files", tool.Integer("Files left out of files.", 0, 1e9)),
				tool.Opt("files_unknown", tool.Boolean("Set, with files empty, when a tree the commit's diff needs is missing from this "+
					"repository (a treeless partial clone): what it changed is unknown.")),
				tool.Req("additions", tool.Integer("Lines added over all files.", 0, 1e9)),
				tool.Req("deletions", tool.Integer("Lines deleted over all files.", 0, 1e9)),
				tool.Opt("lines_unknown", tool.Boolean("Set when some file's line counts are unknown (a version is missing from this "+
					"repository): additions and deletions count the other files.")),
			))),
			tool.Req("total", tool.Integer("How many commits match in all.", 0, 1e9)),
			tool.Opt("next_cursor", tool.Str("Pass as cursor to get the next page; absent on the last page.")),
		),
		Run: tool.Bind(in, runActivity),
	}
}

func runActivity(ctx context.Context, s *tool.Env, a *activityArgs) (any, string, error) {
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
	return res, render.Activity(res), nil
}
