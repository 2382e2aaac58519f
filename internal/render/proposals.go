package render

import (
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// ProposalOutcomes words what became of a session's proposals, for the
// session that proposed them.
func ProposalOutcomes(list []wiki.ProposalOutcome) string {
	var b Builder
	if len(list) == 0 {
		b.Line("This session has proposed nothing.")
		return b.String()
	}
	for i, o := range list {
		if i > 0 {
			b.Line("")
		}
		b.Line("Proposal %s: %s.", o.ID, o.State)
		for _, s := range []struct {
			what  string
			notes []string
		}{{"Waiting for review", o.Open}, {"Accepted", o.Accepted}, {"Rejected", o.Rejected}} {
			if len(s.notes) > 0 {
				b.Line("%s: %s", s.what, strings.Join(s.notes, ", "))
			}
		}
		for _, d := range o.Decisions {
			var what []string
			if len(d.Accepted) > 0 {
				what = append(what, "accepted "+strings.Join(d.Accepted, ", "))
			}
			if len(d.Rejected) > 0 {
				what = append(what, "rejected "+strings.Join(d.Rejected, ", "))
			}
			line := d.At.UTC().Format(time.DateTime) + " " + d.By.Name + " " + strings.Join(what, " and ")
			if d.Comment != "" {
				line += ": " + d.Comment
			}
			b.Line("- %s", line)
		}
	}
	return b.String()
}
