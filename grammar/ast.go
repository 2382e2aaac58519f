package grammar

import "time"

// Field names with a meaning of their own. Any other field name in a query is
// a frontmatter property key.
const (
	FieldText       = ""           // free text: title, aliases and body
	FieldTitle      = "title"      // the title only
	FieldTag        = "tag"        // has the tag, or a tag nested under it
	FieldFolder     = "folder"     // the note is under the folder
	FieldPath       = "path"       // the note's path matches a glob
	FieldLinks      = "links"      // the note links to the target
	FieldLinkedFrom = "linkedfrom" // the note is linked from the source
	FieldCreated    = "created"    // creation date, a DateRange
	FieldModified   = "modified"   // modification date, a DateRange
)

// Query is a parsed search query.
type Query struct {
	// Root is the top of the expression; nil for an empty query.
	Root Node
	// terms holds the terms of Root in input order, as Parse found them.
	terms []*Term
	// plain is set by Parse for a query without operators or groups.
	plain bool
}

// Plain reports whether Parse read the query without an operator that
// joins terms: no AND, no OR and no parentheses, only terms side by side,
// some of them perhaps negated with '-' or NOT. A search may take such a
// query for a question in plain words (see package index).
func (q *Query) Plain() bool { return q != nil && q.plain }

// Terms returns the terms of the query, the leaves of Root from left to
// right: for a query from Parse, the list Parse made in input order,
// without a walk over the tree. An empty query has none. The slice belongs
// to q; callers must not change it.
func (q *Query) Terms() []*Term {
	if q == nil || q.Root == nil {
		return nil
	}
	if q.terms != nil {
		return q.terms
	}
	return appendTerms(nil, q.Root) // a query built by hand
}

func appendTerms(ts []*Term, n Node) []*Term {
	switch n := n.(type) {
	case *And:
		for _, m := range n.Nodes {
			ts = appendTerms(ts, m)
		}
	case *Or:
		for _, m := range n.Nodes {
			ts = appendTerms(ts, m)
		}
	case *Not:
		ts = appendTerms(ts, n.Node)
	case *Term:
		ts = append(ts, n)
	}
	return ts
}

// Node is one node of a query expression: *And, *Or, *Not or *Term.
// String renders the node in the canonical query syntax.
type Node interface {
	node()
	String() string
}

// And matches notes that match every one of Nodes. Parse never nests an
// *And directly inside another *And.
type And struct {
	Nodes []Node
}

// Or matches notes that match at least one of Nodes. Parse never nests an
// *Or directly inside another *Or.
type Or struct {
	Nodes []Node
}

// Not matches notes that do not match Node.
type Not struct {
	Node Node
}

// Term is a single search condition: a word, a phrase or a field:value pair.
type Term struct {
	// Field is FieldText for free text, one of the other Field constants,
	// or a property key (lowercase letters, digits, '_' and '-').
	Field string
	// Value is the value without quotes, escapes or the trailing '*' of a
	// prefix. For created and modified it is the date expression as written
	// (for example ">=2024-01"); Date holds its meaning.
	Value string
	// Phrase is true when the value was quoted. Never set for dates.
	Phrase bool
	// Prefix is true when an unquoted value ended in '*'. Never set for
	// path (whose '*' belongs to the glob) or for dates.
	Prefix bool
	// Date is the time interval of a created or modified term; nil for
	// every other field.
	Date *DateRange
	// Pos is the 1-based byte column where the term starts in the input
	// (at the field name for a field term, after any '-').
	Pos int
}

// DateRange is the half-open time interval [From, To) that a created or
// modified term selects. A zero From or To leaves that end open.
type DateRange struct {
	From, To time.Time
	// Op is the comparison as written: ">", ">=", "<", "<=", "=" (also
	// for a bare date) or ".." for a range.
	Op string
}

// Contains reports whether t lies inside the interval.
func (r *DateRange) Contains(t time.Time) bool {
	if !r.From.IsZero() && t.Before(r.From) {
		return false
	}
	return r.To.IsZero() || t.Before(r.To)
}

func (*And) node()  {}
func (*Or) node()   {}
func (*Not) node()  {}
func (*Term) node() {}
