// Package cairn serves Cairn's eight tools (cairn_read, cairn_write,
// cairn_patch, cairn_delete, cairn_search, cairn_links, cairn_daily,
// cairn_list) with its names, input schemas and response shapes: a read
// answers with the note as markdown under a frontmatter of its metadata,
// the others with a JSON object as text; an error is "ERROR_TYPE: message"
// with isError set. Every change is still one git commit.
package cairn
