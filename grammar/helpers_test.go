package grammar

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// mustParse parses input in loc and fails the test on an error.
func mustParse(tb testing.TB, input string, loc *time.Location) *Query {
	tb.Helper()
	q, err := Parse(input, loc)
	if err != nil {
		tb.Fatalf("Parse(%q): %v", input, err)
	}
	return q
}

// dump renders a query as an indented tree, one node per line, with every
// field of every term; withPos adds the term positions.
func dump(q *Query, withPos bool) string {
	if q.Root == nil {
		return "(empty)\n"
	}
	var b strings.Builder
	dumpNode(&b, q.Root, 0, withPos)
	return b.String()
}

func dumpNode(b *strings.Builder, n Node, indent int, withPos bool) {
	pad := strings.Repeat("  ", indent)
	switch n := n.(type) {
	case *And:
		b.WriteString(pad + "and\n")
		for _, c := range n.Nodes {
			dumpNode(b, c, indent+1, withPos)
		}
	case *Or:
		b.WriteString(pad + "or\n")
		for _, c := range n.Nodes {
			dumpNode(b, c, indent+1, withPos)
		}
	case *Not:
		b.WriteString(pad + "not\n")
		dumpNode(b, n.Node, indent+1, withPos)
	case *Term:
		field := n.Field
		if field == FieldText {
			field = "text"
		}
		fmt.Fprintf(b, "%s%s %q", pad, field, n.Value)
		if n.Phrase {
			b.WriteString(" phrase")
		}
		if n.Prefix {
			b.WriteString(" prefix")
		}
		if n.Date != nil {
			fmt.Fprintf(b, " %s [%s, %s)", n.Date.Op, bound(n.Date.From), bound(n.Date.To))
		}
		if withPos {
			fmt.Fprintf(b, " @%d", n.Pos)
		}
		b.WriteByte('\n')
	default:
		fmt.Fprintf(b, "%s%T\n", pad, n)
	}
}

func bound(t time.Time) string {
	if t.IsZero() {
		return "open"
	}
	return t.Format(time.RFC3339Nano)
}

// shape renders a node as a one-line S-expression with terms in canonical
// form, for precedence tests: "(or a (and b c))".
func shape(n Node) string {
	switch n := n.(type) {
	case nil:
		return "()"
	case *And:
		return "(and " + shapes(n.Nodes) + ")"
	case *Or:
		return "(or " + shapes(n.Nodes) + ")"
	case *Not:
		return "(not " + shape(n.Node) + ")"
	default:
		return n.String()
	}
}

func shapes(nodes []Node) string {
	parts := make([]string, len(nodes))
	for i, n := range nodes {
		parts[i] = shape(n)
	}
	return strings.Join(parts, " ")
}

// checkTerms checks that the terms Parse recorded for q are the leaves of
// its tree, from left to right.
func checkTerms(tb testing.TB, q *Query) {
	tb.Helper()
	got, want := q.Terms(), appendTerms(nil, q.Root)
	if len(got) != len(want) {
		tb.Fatalf("Terms() = %s, want %s", termStrings(got), termStrings(want))
	}
	for i := range got {
		if got[i] != want[i] {
			tb.Fatalf("Terms() = %s, want %s", termStrings(got), termStrings(want))
		}
	}
}

// termStrings renders terms in canonical form, separated by spaces.
func termStrings(ts []*Term) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}
