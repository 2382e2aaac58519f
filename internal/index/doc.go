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
// (UAX #29), then runs of Chinese, Japanese and Korean characters as each
// character and the overlapping bigrams between them (see cjkFilter), then
// lowercase. A CJK word is looked up as the phrase of its bigrams, so it
// is found wherever its characters stand together, inside longer runs too,
// as `git grep -F` finds it; one CJK character finds the notes holding it
// anywhere. There is no stemming and no stop-word list there: "the" and
// "a" stay searchable, and phrases match exactly as written. Each note
// also has a language, from its frontmatter (lang, language) or told from
// the stop words it holds (see noteLanguage), and two stem fields in it:
// its title, and its aliases and body, through bleve's stemmer for that
// language (see forms.go). Keyword fields (path, folders, tags, links,
// properties) hold each value as one lowercased term: tags with every
// ancestor of a nested tag ("project/alpha" also indexes "project"),
// folders as every ancestor folder of the path ("a/b/c" indexes "a" and
// "a/b", so a folder filter is a single term lookup), properties as
// "key=value" terms. Dates are indexed twice: as bleve datetimes for
// ranges, and as one sortable string each for sorting, whose doc values
// are cheaper to read than a datetime's several terms. The frontmatter
// block is indexed as text too, for grep only. Scoring is BM25.
//
// The pairs field holds, for each pair of adjacent body words that are
// both common (in at least a fifth of the notes of the first batch applied
// to an empty index), the pair "a b". A phrase of two such words is a
// single term lookup there, and a longer phrase runs only over the notes
// that hold all its common pairs: bleve would otherwise check the word
// positions of every note holding both words.
//
// # Queries
//
// A word searches title (boost 3), aliases (2) and body, and its stem in
// the stem fields of each language the index holds: "plugin" finds
// "plugins", ranked below "plugin". A quoted word, a prefix and CJK match
// as written; a word the analyzer splits ("wiki-ai") and a quoted phrase
// match as a phrase.
// Field terms compile to keyword lookups (tag:, folder:, links:, any
// property), a wildcard on the lowercased path (path:, where '*' also
// crosses '/'), date ranges (created:, modified:), or, for linkedfrom:, a
// disjunction of the paths the source note links to, read from the index.
// When the request carries the link graph's answers (SearchRequest.Linked),
// links:, linkedfrom: and the backlinks filter match instead the notes the
// graph names, whose links are resolved by path, title and alias.
// A conjunction's negated operands become must_not clauses; a query of
// negations only matches every note except those. Structured filters
// (tags, folder, backlinks, modified since) are a bleve filter: they select
// notes without changing scores.
//
// # Snippets and cursors
//
// Snippets come from the stored bodies of the page's hits: the lines that
// hold one of the query's positive words (gathered by the walk that
// compiles the query) as a substring are analyzed with
// the index's analyzer, and their matches located as bleve would (words,
// prefixes, adjacent words of a phrase, the forms of a word in the note's
// language). Asking bleve for term locations
// instead would run the query a second time. The lines with the most
// distinct matched terms are kept, cut to about 160 characters around the
// first match, matches marked «».
//
// Every sort ends with the note path, so the order is total. Collecting
// the path of every hit is most of the cost of a search matching many
// notes, so a page is first collected by its sort key alone and kept
// unless a note outside it ties with its last hit; only then is it
// collected again in the full order. A cursor is the sort key of the last hit
// (score, date or title, then path) for bleve's SearchAfter, so a page
// never repeats or skips a note because notes were added or deleted
// before it. A relevance cursor scores its note again first, because BM25
// scores move with the number of notes; if the average length of the notes
// changes a lot between pages, notes can still trade places, which only a
// snapshot of the whole result could prevent.
//
// # Consistency
//
// The index is a wiki.DerivedStore: Apply takes an update's documents
// (wiki.Update.Document) in batches of a few hundred, each written with
// the deletions and a commit in one bleve batch, so the commit recorded in
// the index always describes its content, even after a crash: the last
// batch records the update's commit, the others the commit it started
// from. A batch returns when searches see it; the disk catches up in the
// background, and Close waits for it. An index that is missing, unreadable or of another
// schema version is recreated empty on Open, and Commit returns "" so the
// wiki rebuilds it.
//
// # Grep
//
// Containing narrows a grep: a run of ASCII letters, digits and '_' is
// never split by the word segmentation, so wherever a pattern occurs each
// of its runs of three or more characters is inside one indexed word, and
// a wildcard over the term dictionaries of the body and the frontmatter
// finds every note that may hold it. Notes with a letter whose lowercase
// has another UTF-8 length, which bleve's lowercase filter garbles, are
// always candidates.
package index
