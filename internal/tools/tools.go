package tools

import (
	"github.com/wikid/wikid/internal/tool"
)

// instructions tell the model how the tools fit together and the
// conventions they share. They are said once here, not in every tool's
// description, since a client sends the tool definitions with every request.
const instructions = `wikid serves a git repository of markdown notes.

To answer a question from the notes, call gather_context first: it returns the sections that answer it, cited, in ` +
	`one call. Find notes with search_notes (ranked, with a query language) or grep_notes (exact lines), browse with ` +
	`list_notes, turn names into paths with resolve_notes. Read with read_note. Change part of a note with edit_note rather than ` +
	`resending it with write_note; change several notes together with apply_changes.

Conventions of every tool:
- Paths are relative, use / and have no extension: projects/alpha/plan is the file projects/alpha/plan.md. A trailing ` +
	`.md, .markdown or .mdx is accepted; a path that differs from one note's only in case or in how its accents are ` +
	`encoded finds it. A new name must work on Windows and macOS too: none of < > : " | ? *, no device name such as ` +
	`CON or NUL, no invisible characters. folder keeps the notes ` +
	`under that folder, at any depth; a tag filter also matches nested tags (project matches project/alpha).
- section names a heading by its text (the first match, at any level) or as Parent/Child; the section runs to the ` +
	`next heading of the same or a higher level.
- commit, from, to and the version of read_note and restore_note name a commit: a full or short sha, HEAD~N or a ` +
	`branch, as note_history and activity_log list them.
- Reads return the note's version. Pass it as expected_version when you change the note, so as not to overwrite ` +
	`someone else's change: if the note changed since, nothing is written and the error is CONFLICT with the current ` +
	`version. Leave it out to write regardless.
- Every change is one git commit; message (why, in a sentence) becomes its body. The result gives the commit and the ` +
	`note's new version. dry_run previews a change as a diff with its risk and a summary, and commits nothing. Nothing is ` +
	`lost: restore_note brings back an old version or a deleted note, revert_change undoes one commit.
- Lists take limit and return total and, when more follow, next_cursor: pass it as cursor, with the other arguments ` +
	`unchanged, for the next page. Long text is cut and marked truncated; a read continues with offset set to next_offset.
- Dates are YYYY-MM-DD (or RFC 3339 for a time) in the wiki's time zone. A note's created and modified are its ` +
	`frontmatter's (created, modified, or a synonym such as updated) where it has them, else git's (its first and last ` +
	`commit, renames followed); read_note's created_source and modified_source say which; structured content gives ` +
	`times in UTC. Sorting by a date puts the newest first ` +
	`and notes without one last.
- Links are [[Name]], [[Name|label]], [[Name#Heading]], [[Name#^block]], ![[embed]] and markdown links relative to ` +
	`the linking note. With links.resolve obsidian (the default when the repository has .obsidian/), [[Name]] resolves ` +
	`by file name anywhere and [[folder/Name]] by the end of the path, never by title or alias; with wiki, by path, then ` +
	`title, then alias, the nearest note first.
- The tools see committed notes only: uncommitted edits in the checkout are not shown (read_note's local_change and ` +
	`wiki_status say when there are some).
- A failed call says CODE: message. Hint: what to do next; its structured content is {"error": {code, message, hint, ...details}}.`

// Profile is wikid's own tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: allTools, Instructions: instructions, Words: words}
}

// allTools lists every tool wikid has, in no particular order.
func allTools() []*tool.Tool {
	return []*tool.Tool{
		readNoteTool(), writeNoteTool(), editNoteTool(), updateMetadataTool(), moveNoteTool(), deleteNoteTool(),
		dailyNoteTool(), applyChangesTool(),
		searchNotesTool(), gatherContextTool(), grepNotesTool(), listNotesTool(), listTagsTool(), recentChangesTool(),
		resolveNotesTool(), randomNoteTool(),
		getLinksTool(), findPathTool(), getHubsTool(), findBrokenLinksTool(),
		readImageTool(), wikiStatusTool(), syncWikiTool(), relatedNotesTool(),
		noteHistoryTool(), diffVersionsTool(), blameNoteTool(), activityLogTool(), restoreNoteTool(), revertChangeTool(),
	}
}
