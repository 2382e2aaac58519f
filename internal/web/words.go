package web

import "github.com/wikid/wikid/internal/wiki"

// words is how the pages word the references in the core's messages,
// hints and warnings, for a person reading them: by the pages and buttons
// that do the job, and by the command line where the pages have none.
var words = wiki.Words{
	"read": "the note's page", "write": "wikid write", "edit": "wikid edit", "metadata": "wikid edit",
	"delete": "wikid rm", "move": "wikid mv", "apply": "wikid edit", "daily": "wikid write",
	"list": "the folder pages", "search": "search", "resolve": "search", "grep": "wikid grep",
	"links": "the note's page", "broken_links": "wikid check", "tags": "search", "sync": "wikid sync",
	"history": "the note's history", "diff": "the note's history", "blame": "who changed each line",
	"activity": "the changes page", "restore": "Restore", "revert": "Undo", "status": "wikid daemon status",
	"expected_version": "the expected version", "overwrite": "pass --overwrite", "regex_off": "leave out --regex",
	"read_only": "--read-only", "version": "the version",
	// The pages page by links, and change notes through the command line.
	"new_path": "the new path", "expected_matches": "--expected-matches", "edits": "",
	"cursor": "the next page", "next_cursor": "the next page",
	"limit": "the next page", "offset": "", "update_links": "wikid mv",
}

// The Wiki-Tool trailers of the commits the pages make: what a person
// did, by the pages' own names for it, never an MCP tool's.
const (
	toolUndo    = "web undo"
	toolRestore = "web restore"
)
