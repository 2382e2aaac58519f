package tools

import "github.com/wikid/wikid/internal/wiki"

// words is how the tools word the references in the core's messages,
// hints and warnings: by the names of the tools and arguments.
var words = wiki.Words{
	"read": "read_note", "write": "write_note", "edit": "edit_note", "metadata": "update_metadata",
	"delete": "delete_note", "move": "move_note", "apply": "apply_changes",
	"list": "list_notes", "search": "search_notes", "resolve": "resolve_notes", "grep": "grep_notes",
	"links": "get_links", "broken_links": "find_broken_links", "tags": "list_tags", "sync": "sync_wiki",
	"history": "note_history", "diff": "diff_versions", "blame": "blame_note", "activity": "activity_log",
	"restore": "restore_note", "revert": "revert_change", "status": "wiki_status", "daily": "daily_note",
	"expected_version": "expected_version", "overwrite": "set overwrite: true", "regex_off": "set regex: false",
	"read_only": "--read-only", "version": "version",
	"new_path": "new_path", "expected_matches": "expected_matches", "edits": "edits",
	"cursor": "cursor", "next_cursor": "next_cursor",
	"limit": "limit", "offset": "offset", "update_links": "set update_links: true",
}
