package quality_test

import (
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// sideBySide prints a set's figures: first those of the ways of asking
// that no model takes part in, then, in a column per model, those of
// the ways that rank by meaning.
func sideBySide(rs []*report) string {
	var b strings.Builder
	r0 := rs[0]
	n := max(r0.text.N, 1)
	fmt.Fprintf(&b, "%s: %d questions over %d notes\n", r0.set, r0.text.N, r0.notes)
	fmt.Fprintf(&b, "  %-30s %s  (%d found nothing)\n", "search_notes, as typed", r0.text, r0.empty)
	fmt.Fprintf(&b, "  %-30s %s\n", "as typed, index being built", r0.scan)
	fmt.Fprintf(&b, "  %-30s %s\n", "git grep, by words matched", r0.grep)
	row := func(label string, cell func(r *report) string) {
		fmt.Fprintf(&b, "  %-30s", label)
		for _, r := range rs {
			fmt.Fprintf(&b, " %-42s", cell(r))
		}
		b.WriteByte('\n')
	}
	row("", func(r *report) string { return r.model })
	row("mode semantic", func(r *report) string { return r.semantic.String() })
	row("mode hybrid", func(r *report) string { return r.hybrid.String() })
	row("hybrid: top-5 places of 4 hubs", func(r *report) string {
		return fmt.Sprintf("%d of %d", r.hubPlaces(4), 5*r.text.N)
	})
	row("better of text and semantic", func(r *report) string { return r.either.String() })
	row("gather_context: right section", func(r *report) string {
		return fmt.Sprintf("%3.0f%%, leading in %3.0f%%, %d tokens", 100*float64(r.gatherHit)/float64(n),
			100*float64(r.gatherLead)/float64(n), r.gatherTokens/n)
	})
	row("resolve_notes: right first", func(r *report) string {
		return fmt.Sprintf("%d of %d, a right note for %d; none for %d of %d unrelated", r.resolveRight, r.text.N, r.resolveFound, r.resolveNone, len(r.far))
	})
	row(fmt.Sprintf("  at the default %.2f", wiki.DefaultSemanticThreshold), func(r *report) string {
		return fmt.Sprintf("a right note for %d; none for %d of %d unrelated", r.resolveFoundDefault, r.resolveNoneDefault, len(r.far))
	})
	row("best cosine of questions", func(r *report) string { return quantiles(r.near) })
	row("best cosine of unrelated", func(r *report) string { return quantiles(r.far) })
	return b.String()
}
