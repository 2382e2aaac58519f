// Package obsidian serves the Obsidian MCP patterns' tools in their
// groups, with their verb_object names, their parameters (path with its
// .md, context_length, max_results, recursive, ...) and their standard
// response structures: CRUD, search, list, analysis, tag and move
// operations, each a JSON object as text. The seed gives conventions, not
// schemas; where it is silent a tool says in its description what it
// does. Every change is one git commit, so "permanent" is never quite
// true: git history keeps every version.
package obsidian
