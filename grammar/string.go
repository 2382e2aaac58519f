package grammar

import "strings"

// String returns the query in canonical form: implicit AND, explicit OR,
// '-' for NOT, field names in lowercase, quotes only where the input had
// them, and parentheses only where precedence needs them. Parsing the
// result gives back the same AST, apart from the Pos of each term (the
// result is seldom longer than the input: only terms that touched, as in
// a"b", gain a space between them). An empty query gives "".
func (q *Query) String() string {
	if q == nil || q.Root == nil {
		return ""
	}
	return q.Root.String()
}

// String returns the node in canonical form; see Query.String.
func (n *And) String() string {
	var b strings.Builder
	writeNode(&b, n)
	return b.String()
}

// String returns the node in canonical form; see Query.String.
func (n *Or) String() string {
	var b strings.Builder
	writeNode(&b, n)
	return b.String()
}

// String returns the node in canonical form; see Query.String.
func (n *Not) String() string {
	var b strings.Builder
	writeNode(&b, n)
	return b.String()
}

// String returns the term in canonical form; see Query.String.
func (t *Term) String() string {
	var b strings.Builder
	writeTerm(&b, t)
	return b.String()
}

func writeNode(b *strings.Builder, n Node) {
	switch n := n.(type) {
	case *And:
		for i, c := range n.Nodes {
			if i > 0 {
				b.WriteByte(' ')
			}
			_, group := c.(*Or)
			if _, and := c.(*And); and {
				group = true
			}
			writeChild(b, c, group)
		}
	case *Or:
		for i, c := range n.Nodes {
			if i > 0 {
				b.WriteString(" OR ")
			}
			_, group := c.(*Or)
			writeChild(b, c, group)
		}
	case *Not:
		b.WriteByte('-')
		switch n.Node.(type) {
		case *And, *Or:
			writeChild(b, n.Node, true)
		default:
			writeNode(b, n.Node)
		}
	case *Term:
		writeTerm(b, n)
	}
}

func writeChild(b *strings.Builder, n Node, group bool) {
	if group {
		b.WriteByte('(')
	}
	writeNode(b, n)
	if group {
		b.WriteByte(')')
	}
}

func writeTerm(b *strings.Builder, t *Term) {
	if t.Field != FieldText {
		b.WriteString(t.Field)
		b.WriteByte(':')
	}
	if t.Phrase {
		b.WriteString(quote(t.Value))
		return
	}
	b.WriteString(t.Value)
	if t.Prefix {
		b.WriteByte('*')
	}
}
