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
// # Consistency
//
// Apply writes the documents, the deletions and the new commit in one bleve
// batch, so the commit recorded in the index always describes its content,
// even after a crash. An index that is missing, unreadable or of another
// schema version is recreated empty on Open, and Commit returns "" so the
// wiki rebuilds it.
package index
