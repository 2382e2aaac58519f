// Package note is the pure model of a markdown note: frontmatter, title,
// tags, aliases, properties, links with line numbers, headings and sections,
// the edit operations of the edit_note tool, frontmatter edits that change
// only the lines of the keys they touch, and the rules for note paths.
//
// Nothing here does I/O. Every function takes bytes and returns bytes or a
// model, so that writes, search, backlinks and history all see a note the
// same way. Errors are *wikierr.Error values carrying a contract code.
package note
