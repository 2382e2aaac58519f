// Package index is wikid's full-text search index, and the only package
// that imports bleve. It implements wiki.Index: it stores the documents the
// wiki hands it, records the commit they reflect, compiles parsed queries
// (package grammar) into bleve queries, and returns ranked hits with
// snippets, opaque cursors and tag counts.
//
// # Fields
//
// Each note is one bleve document whose id is the note path. Text fields
// (title, aliases, body) go through one analyzer: Unicode word boundaries
// (UAX #29), then lowercase. There is no stemming and no stop-word
// list: a search for "running" finds "running" and not "run", which is
// what people expect from exact words in a personal wiki, and "run*" is
// the way to ask for variants; "the" and "a" stay searchable, so phrases
// match exactly as written. Keyword fields (path, folders, tags, links,
// properties) hold each value as one lowercased term: tags with every
// ancestor of a nested tag ("project/alpha" also indexes "project"),
// folders as every ancestor folder of the path ("a/b/c" indexes "a" and
// "a/b", so a folder filter is a single term lookup), properties as
// "key=value" terms. Scoring is BM25.
//
// # Queries
//
// A word searches title (boost 3), aliases (2) and body; a word the
// analyzer splits ("wiki-ai") and a quoted phrase match as a phrase.
// Field terms compile to keyword lookups (tag:, folder:, links:, any
// property), a wildcard on the lowercased path (path:, where '*' also
// crosses '/'), date ranges (created:, modified:), or, for linkedfrom:, a
// disjunction of the paths the source note links to, read from the index.
// When the request carries the link graph (SearchRequest.LinkedNotes),
// links:, linkedfrom: and the backlinks filter match instead the notes the
// graph names, whose links are resolved by path, title and alias.
// A conjunction's negated operands become must_not clauses; a query of
// negations only matches every note except those. Structured filters
// (tags, folder, backlinks, modified since) are a bleve filter: they select
// notes without changing scores.
//
// # Snippets and cursors
//
// Snippets come from the term locations bleve records for the body (term
// vectors), never from scanning the text again: the lines with the most
// distinct matched terms, cut to about 160 characters around the first
// match, matches marked «». A cursor is the sort key of the last hit
// (score, date or title, then path) for bleve's SearchAfter, so a page
// never repeats or skips a note because notes were added or deleted
// before it. A relevance cursor scores its note again first, because BM25
// scores move with the number of notes; if the average length of the notes
// changes a lot between pages, notes can still trade places, which only a
// snapshot of the whole result could prevent.
//
// # Consistency
//
// Apply writes the documents, the deletions and the new commit in one bleve
// batch, so the commit recorded in the index always describes its content,
// even after a crash. Apply returns when searches see the batch; the disk
// catches up in the background, and Close waits for it. An index that is missing, unreadable or of another
// schema version is recreated empty on Open, and Commit returns "" so the
// wiki rebuilds it.
package index
