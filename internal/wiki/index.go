package wiki

import (
	"context"
	"time"

	"github.com/wikid/wikid/grammar"
)

// Index is the search index: derived state under Store.Dir(), rebuilt from
// the commits whenever it is missing, corrupt or out of step. As a
// DerivedStore it follows HEAD, storing every changed note as the Document
// the update gives for it (Update.Document); it never reads the repository
// itself. Implementations are safe for concurrent use.
type Index interface {
	DerivedStore
	// Search runs a query. It returns an error wrapping ErrInvalidQuery
	// when the query cannot be compiled and ErrInvalidParams for a bad
	// cursor or sort.
	Search(ctx context.Context, req SearchRequest) (*SearchResult, error)
	// Matching returns the paths of every note that matches a request's
	// query and filters, in no order; it ignores sort, limit, cursor and
	// snippets, and returns Search's errors.
	Matching(ctx context.Context, req SearchRequest) ([]string, error)
	// Containing returns the paths of the notes under folder ("" for all)
	// whose text, frontmatter and body, may hold every one of strs,
	// compared ignoring case: a note left out holds one of them nowhere.
	// It reports false, and no paths, when it cannot narrow the notes for
	// these strings, and the caller must look at every note.
	Containing(ctx context.Context, strs []string, folder string) (paths []string, ok bool, err error)
	// Tags counts the notes per tag, nested tags counted for every ancestor.
	Tags(ctx context.Context, req TagsRequest) ([]TagCount, error)
	// Scratch returns an empty index in memory with this one's semantics,
	// for a search to answer from while this one is built (see scans).
	Scratch() (ScratchIndex, error)
	// Len returns the number of indexed notes.
	Len(ctx context.Context) (int, error)
	// Close releases the index.
	Close(ctx context.Context) error
}

// Document is one note as the index stores it.
type Document struct {
	Path    string // note path, no extension
	File    string // repository file
	Version string // blob id
	Title   string
	Aliases []string
	// Frontmatter is the note's text before Body: the frontmatter block
	// with its fences, or "".
	Frontmatter string
	Body        string // the note's text after the frontmatter
	// BodyLine is the line number of Body's first line in the file, so
	// snippets report file line numbers.
	BodyLine int
	// Tags as written; the index also stores every ancestor of a nested tag
	// and matches case-insensitively.
	Tags []string
	// Properties are the frontmatter keys with scalar values (and lists of
	// scalars), lowercased keys, values as strings.
	Properties map[string][]string
	// Created and Modified are the frontmatter's dates, zero when it has
	// none: the index does not store git's, so that it is built without
	// waiting for the history; a search by date passes them in
	// SearchRequest.GitDates.
	Created  time.Time
	Modified time.Time
	// Links are the note paths this note links to (resolved where possible,
	// else the target as written, lowercased).
	Links []string
}

// SearchRequest is a search: a parsed query plus structured filters, all
// combined with AND.
type SearchRequest struct {
	Query         *grammar.Query // nil or empty: every note
	Tags          []string       // all of
	Folder        string         // note path of a folder, "" for all
	Paths         []string       // when not nil, the only notes that may match
	BacklinksTo   string         // notes linking to this note path
	ModifiedSince time.Time
	// Linked, when not nil, answers links: and linkedfrom: terms and
	// BacklinksTo from the link graph: it holds the paths of the notes that
	// answer the LinkTerm of each (LinkTermOf, BacklinksTerm). The index
	// then matches those paths rather than the link targets it stores; a
	// term missing from Linked matches no note.
	Linked map[LinkTerm][]string
	// GitDates are git's dates of the notes, for a note whose frontmatter
	// lacks one: a search with a date term, a date sort or ModifiedSince
	// must have them (see NeedsDates), others ignore them. A note they do
	// not hold has no date.
	GitDates GitDates
	// Sort is relevance (default), modified, created or title.
	Sort   string
	Limit  int
	Cursor string
	// Snippets is how many snippets a hit gets at most: 0 for none.
	Snippets int
}

// NeedsDates reports whether a search looks at the notes' dates: by a
// created: or modified: term, a date sort or ModifiedSince. It must then
// have git's dates (GitDates).
func (r SearchRequest) NeedsDates() bool {
	if r.Sort == SortModified || r.Sort == SortCreated || !r.ModifiedSince.IsZero() {
		return true
	}
	for _, t := range r.Query.Terms() {
		if t.Field == grammar.FieldCreated || t.Field == grammar.FieldModified {
			return true
		}
	}
	return false
}

// GitDates are the git dates of the notes at one commit, by note path
// (without extension). A map once passed to a search never changes (the
// index keeps what it derives from it for as long as it gets the same
// map): new dates come in a new map.
type GitDates map[string]GitDate

// GitDate is when git says a note was created and last changed (see
// FileTimes).
type GitDate struct{ Created, Modified time.Time }

// LinkTerm is one question a search asks the link graph, as
// Graph.LinkedNotes takes it: the notes that link to the note Name
// resolves to (DirIn), or that it links to (DirOut); with Prefix, to or
// from every note whose path starts with Name.
type LinkTerm struct {
	Name   string
	Dir    Direction
	Prefix bool
}

// LinkTermOf returns the link term of a links: or linkedfrom: term of a
// query, and false for a term of any other field.
func LinkTermOf(t *grammar.Term) (LinkTerm, bool) {
	switch t.Field {
	case grammar.FieldLinks:
		return LinkTerm{Name: t.Value, Dir: DirIn, Prefix: t.Prefix}, true
	case grammar.FieldLinkedFrom:
		return LinkTerm{Name: t.Value, Dir: DirOut, Prefix: t.Prefix}, true
	}
	return LinkTerm{}, false
}

// BacklinksTerm returns the link term of the backlinks filter: the notes
// that link to the note at notePath, named by its path from the root.
func BacklinksTerm(notePath string) LinkTerm {
	return LinkTerm{Name: "/" + notePath, Dir: DirIn}
}

// SearchResult is one page of hits.
type SearchResult struct {
	Results    []SearchHit
	Total      int
	NextCursor string
	// Mode is the search that answered: text, semantic or hybrid.
	Mode string
	// Fallback says why the search ranked otherwise than asked: a hybrid
	// search by one ranking alone (text when the endpoint failed, semantic
	// when the query is not in the query language), or a semantic one by
	// words too (notes not embedded yet, or none near); "" when neither.
	Fallback string
	// Unembedded counts the notes the semantic index has not embedded
	// yet, which a semantic or hybrid search could not rank by meaning.
	Unembedded int
	// Embedded counts the notes the semantic index has embedded, of the
	// Embedded+Unembedded whose text its model reads; Static is set when
	// the Unembedded notes were ranked by meaning all the same, by the
	// index's static model (SemanticState.Static).
	Embedded int
	Static   bool
	// QuestionWords is set when a query in plain words found fewer notes
	// with all its words than a page holds, and was read as a question:
	// the number of its content words. The notes with every word come
	// first, then those with most of them (SearchHit.Matched).
	QuestionWords int
	// Scan is set when the search index was being built and the search
	// answered from a scan of the notes at HEAD instead (see scans).
	Scan *ScanInfo
}

// SearchHit is one matching note. The index sets Modified to the date it
// sorts by; the wiki then sets the note's dates at HEAD and their sources,
// as Dates does.
type SearchHit struct {
	Path           string
	Title          string
	Tags           []string
	Created        *time.Time
	CreatedSource  string
	Modified       time.Time
	ModifiedSource string
	Score          float64
	Snippets       []Snippet
	// Matched is how many of a question's content words the note holds
	// (see SearchResult.QuestionWords); 0 for other searches.
	Matched int
}

// Snippet is a piece of a note around a match; matched terms are marked
// with «» in Text.
type Snippet struct {
	Line int
	Text string
}

// TagsRequest filters a tag count.
type TagsRequest struct {
	Prefix string // tags starting with this (case-insensitive)
	Folder string
}

// TagCount is a tag and how many notes carry it.
type TagCount struct {
	Tag   string
	Count int
}
