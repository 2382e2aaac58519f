package render

import (
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/wiki"
)

// landedOn names where a mutation's commit went: the branch, or a
// proposal.
func landedOn(res *wiki.Result) string {
	if res.Proposal != "" {
		return "proposal " + res.Proposal
	}
	return res.Branch
}

// Mutation renders a mutation's outcome: headline says what was done
// ("Created note "Ideas" at projects/ideas"); a dry run shows what would
// change, the risk and the diff instead. Details are lines that go before
// the diff.
func Mutation(headline string, res *wiki.Result, details ...string) string {
	var b Builder
	switch {
	case res.DryRun && len(res.Changes) > 0:
		b.Line("Dry run, nothing was committed. Would change:")
		changeLines(&b, res)
		b.Line("Risk: %s. %s", res.Risk, Sentence(res.Summary))
	case res.Commit == "":
		b.Line("No change: the notes already read that way, so no commit was made.")
	case len(res.Changes) == 1:
		c := res.Changes[0]
		if c.Action == wiki.ActionDeleted {
			b.Line("%s (commit %s on %s)", headline, ShortID(res.Commit), landedOn(res))
		} else {
			b.Line("%s (+%d -%d; commit %s on %s, version %s)", headline, c.Additions, c.Deletions, ShortID(res.Commit), landedOn(res), ShortID(c.Version))
		}
	default:
		b.Line("%s as commit %s on %s:", headline, ShortID(res.Commit), landedOn(res))
		changeLines(&b, res)
	}
	for _, w := range res.Warnings {
		if res.Commit == "" && !res.DryRun && w == "the change leaves every note as it was; no commit was made" {
			continue // said above
		}
		b.Line("Warning: %s", Sentence(w))
	}
	for _, d := range details {
		b.Line("%s", d)
	}
	if res.DryRun && res.Diff != "" {
		b.Line("")
		b.Line("%s", res.Diff)
	}
	return b.String()
}

func changeLines(b *Builder, res *wiki.Result) {
	for _, c := range res.Changes {
		v := ""
		if c.Version != "" {
			v = fmt.Sprintf(", version %s", ShortID(c.Version))
		}
		if c.Action == wiki.ActionMoved {
			b.Line("- moved %s → %s (+%d -%d%s)", c.From, c.Path, c.Additions, c.Deletions, v)
			continue
		}
		b.Line("- %s %s (+%d -%d%s)", c.Action, c.Path, c.Additions, c.Deletions, v)
	}
}

// Move renders a move in the style of the seeds: the headline, then the
// notes whose links were updated or still point at the old path.
func Move(headline string, res *wiki.Result, updating bool) string {
	var details []string
	if len(res.LinksUpdated) > 0 {
		verb := "Updated"
		if res.DryRun {
			verb = "Would update"
		}
		details = append(details, "", fmt.Sprintf("%s links in %s:", verb, Plural(len(res.LinksUpdated), "note")))
		for _, n := range res.LinksUpdated {
			details = append(details, fmt.Sprintf("- %s (%s)", n.Path, Plural(len(n.Links), "link")))
		}
	}
	if len(res.BrokenLinks) > 0 {
		details = append(details, "", fmt.Sprintf("%s %s links that now point to the old path:", Plural(len(res.BrokenLinks), "note"),
			verb(len(res.BrokenLinks), "has", "have")))
		for _, n := range res.BrokenLinks {
			details = append(details, fmt.Sprintf("- %s (%s)", n.Path, Plural(len(n.Links), "link")))
		}
		if !updating {
			details = append(details, "", wiki.Sayf("To update these links, {update_links}."))
		}
	}
	// the warnings say the same as the lists above
	shown := *res
	shown.Warnings = nil
	for _, w := range res.Warnings {
		if len(res.BrokenLinks) == 0 || !strings.Contains(w, "links that still name the old paths") {
			shown.Warnings = append(shown.Warnings, w)
		}
	}
	return Mutation(headline, &shown, details...)
}

// Sync renders a sync: what came in, what went out, and the conflicts.
func Sync(res *gitsync.Result) string {
	var b Builder
	switch {
	case res.Remote == "" && res.Pushed:
		b.Line("Pushed %s to %s, which had no such branch.", ShortID(res.Commit), res.Upstream)
	case res.Integrated == wiki.IntegratedAlready && !res.Pushed:
		b.Line("In sync with %s at %s.", res.Upstream, ShortID(res.Commit))
	default:
		what := map[string]string{
			wiki.IntegratedAlready:     "nothing to integrate",
			wiki.IntegratedFastForward: "fast-forwarded to the remote",
			wiki.IntegratedMerge:       "merged with the remote",
		}[res.Integrated]
		if res.Pushed {
			what += ", pushed"
		}
		b.Line("%s: %s; now at %s.", res.Upstream, what, ShortID(res.Commit))
	}
	for _, m := range res.Merged {
		b.Line("Merged: %s", m)
	}
	for _, c := range res.Conflicts {
		if c.Copy != "" {
			b.Line("Conflict: %s (%s); the other side is in %s", c.Path, c.Why, c.Copy)
		} else {
			b.Line("Conflict: %s (%s)", c.Path, c.Why)
		}
	}
	for _, p := range res.Proposals {
		b.Line("Proposals: %s", p)
	}
	return b.String()
}

// notePath is the path of the one note a mutation changed, else the path
// the caller gave.
func notePath(given string, res *wiki.Result) string {
	if len(res.Changes) == 1 {
		return res.Changes[0].Path
	}
	return given
}

// Written renders the write of a note: created or replaced, with its
// title.
func Written(path string, res *wiki.Result) string {
	verb, title := "Replaced", ""
	if len(res.Changes) == 1 {
		title = res.Changes[0].Title
		if res.Changes[0].Action == wiki.ActionCreated {
			verb = "Created"
		}
	}
	return Mutation(fmt.Sprintf("%s note %q at %s", verb, title, notePath(path, res)), res)
}

// Edited renders edits to a note.
func Edited(path string, edits int, res *wiki.Result) string {
	return Mutation(fmt.Sprintf("Edited %s with %s", notePath(path, res), Plural(edits, "edit")), res)
}

// Deleted renders the deletion of a note.
func Deleted(path string, res *wiki.Result) string {
	return Mutation("Deleted note "+notePath(path, res), res)
}

// Restored renders the restore of a note to version, "" for its last one.
func Restored(path, version string, res *wiki.Result) string {
	what := "the version of " + strings.TrimSpace(version)
	if version == "" {
		what = "its last version"
	}
	return Mutation("Restored note "+notePath(path, res)+" to "+what, res)
}

// Reverted renders the revert of a commit.
func Reverted(commit string, res *wiki.Result) string {
	return Mutation("Reverted commit "+strings.TrimSpace(commit), res)
}

// Moved renders the move of a note or a folder from one path to another;
// updating says whether the links to it were updated.
func Moved(from, to string, res *wiki.Result, updating bool) string {
	var moved []wiki.NoteChange
	for _, c := range res.Changes {
		if c.Action == wiki.ActionMoved {
			moved = append(moved, c)
		}
	}
	if len(moved) == 1 && moved[0].From != "" {
		from, to = moved[0].From, moved[0].Path
	}
	what := "note"
	if len(moved) != 1 {
		what = fmt.Sprintf("folder (%s)", Plural(len(moved), "note"))
	}
	return Move(fmt.Sprintf("Moved %s from %s to %s", what, from, to), res, updating)
}
