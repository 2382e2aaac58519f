package main

import (
	"regexp"
	"strings"
)

// The core's hints and warnings name what to do next in the words of the
// MCP tools ("restore it with restore_note", "set overwrite: true"). At the
// command line those words are rewritten into its own commands and flags
// by cliWords, in one place: main, for errors and their hints, and
// printResult, for warnings. Words without a command of their own stay as
// they are. (Issue 13 moves the wording of hints to the front ends; this
// table is then where the command line's wording starts.)

// cliNames maps an MCP tool or argument, as the core's messages spell it,
// to the command line's words for it.
var cliNames = map[string]string{
	"read_note":         "wikid read",
	"write_note":        "wikid write",
	"edit_note":         "wikid edit",
	"delete_note":       "wikid rm",
	"move_note":         "wikid mv",
	"search_notes":      "wikid search",
	"resolve_notes":     "wikid search",
	"list_notes":        "wikid search folder:FOLDER",
	"grep_notes":        "wikid grep",
	"get_links":         "wikid links",
	"find_broken_links": "wikid check",
	"note_history":      "wikid history",
	"diff_versions":     "wikid diff",
	"restore_note":      "wikid restore",
	"activity_log":      "wikid log",
	"blame_note":        "wikid blame",
	"revert_change":     "wikid revert",
	"overwrite: true":   "--overwrite",
	"regex: false":      "no --regex",
	"expected_version":  "--expected-version",
}

// mcpWord is a snake_case name, and a ": true" or ": false" after it.
var mcpWord = regexp.MustCompile(`[a-z]+(?:_[a-z]+)*(?:: (?:true|false))?`)

// cliWords rewrites the MCP words of a message into the command line's.
// A word is rewritten only when it stands alone: not inside a path, a
// quoted name or a longer identifier.
func cliWords(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range mcpWord.FindAllStringIndex(s, -1) {
		word := s[m[0]:m[1]]
		cli, ok := cliNames[word]
		if !ok {
			if base, _, cut := strings.Cut(word, ":"); cut {
				word, cli, ok = base, cliNames[base], cliNames[base] != ""
				m[1] = m[0] + len(base)
			}
		}
		if !ok || m[0] > 0 && inWord(s[m[0]-1]) || m[1] < len(s) && inWord(s[m[1]]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(cli)
		last = m[1]
	}
	b.WriteString(s[last:])
	out := b.String()
	for _, cli := range cliNames { // "wikid search or wikid search"
		for strings.Contains(out, cli+" or "+cli) {
			out = strings.ReplaceAll(out, cli+" or "+cli, cli)
		}
	}
	return out
}

// inWord reports whether c continues a name, a path or a quoted string.
func inWord(c byte) bool {
	return c == '_' || c == '/' || c == '-' || c == '"' || c == '\'' || c == '`' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
