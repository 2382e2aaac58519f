package main

import (
	"context"
	"fmt"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// pruneProposalsEvery is how often the daemon prunes the closed proposals.
const pruneProposalsEvery = 6 * time.Hour

// prune removes the closed proposals past proposals.keep_closed, or with
// --dry-run lists them.
func (c *proposalsCommand) prune(ctx context.Context, w *wiki.Wiki, f proposalsFlags) error {
	pruned, err := w.PruneProposals(ctx, *f.dryRun)
	if err != nil {
		return err
	}
	if *f.json {
		return writeJSON(c.stdout, pruned)
	}
	keep := w.Options().KeepClosedProposals
	if keep < 0 {
		_, err := fmt.Fprintln(c.stdout, "Closed proposals are kept forever (proposals.keep_closed: forever).")
		return err
	}
	verb := "Pruned"
	if *f.dryRun {
		verb = "Would prune"
	}
	if len(pruned) == 0 {
		_, err := fmt.Fprintf(c.stdout, "No closed proposal is older than %s.\n", days(keep))
		return err
	}
	for _, p := range pruned {
		fmt.Fprintf(c.stdout, "%s %s  %s by %s on %s\n", verb, p.ID, p.Closed, p.By.Name, p.At.Format(time.DateOnly))
	}
	_, err = fmt.Fprintf(c.stdout, "%s %d closed proposals older than %s.\n", verb, len(pruned), days(keep))
	return err
}

// days words a keeping time in days when it is whole days.
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
