// Package tools is wikid's own tool set, the contract of TOOLS.md, on top
// of wiki.Wiki: reading, writing and editing notes, search and
// gather_context, links, history and restore, sync and status. Each tool
// returns structured content under its output schema and a short text
// rendering for the model, the one package render writes for the command
// line too; ResultJSON gives the command line the same JSON.
package tools
