package main

import "github.com/wikid/wikid/internal/wiki"

// cliWords is how the command line words the references in the core's
// messages, hints and warnings: by its commands and flags. main words
// errors and their hints, printText the renderings, printJSON every string.
var cliWords = wiki.Words{
	"read": "wikid read", "write": "wikid write", "edit": "wikid edit", "metadata": "wikid edit",
	"delete": "wikid rm", "move": "wikid mv", "apply": "wikid edit",
	"list": "wikid search folder:FOLDER", "search": "wikid search", "resolve": "wikid search", "grep": "wikid grep",
	"links": "wikid links", "broken_links": "wikid check", "tags": "wikid search tag:TAG", "sync": "wikid sync",
	"history": "wikid history", "diff": "wikid diff", "blame": "wikid blame", "activity": "wikid log",
	"restore": "wikid restore", "revert": "wikid revert", "status": "wikid daemon status", "daily": "wikid write",
	"expected_version": "--expected-version", "overwrite": "pass --overwrite", "regex_off": "leave out --regex",
	"read_only": "--read-only", "version": "VERSION",
	// wikid edit makes one edit: an error needs no index of it.
	"new_path": "NEW", "expected_matches": "--expected-matches", "edits": "",
	"cursor": "--cursor", "next_cursor": "cursor",
	// wikid read prints the whole note: it has no offset.
	"limit": "--limit", "offset": "", "update_links": "leave out --no-update-links",
}
