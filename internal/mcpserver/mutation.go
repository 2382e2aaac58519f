package mcpserver

import (
	"fmt"

	"github.com/wikid/wikid/internal/wiki"
)

// mutationArgs are the arguments every mutating tool takes.
type mutationArgs struct {
	ExpectedVersion string `json:"expected_version"`
	DryRun          bool   `json:"dry_run"`
	Message         string `json:"message"`
}

func (m mutationArgs) mutation(c wiki.Caller) wiki.Mutation {
	return wiki.Mutation{ExpectedVersion: m.ExpectedVersion, DryRun: m.DryRun, Message: m.Message, Caller: c}
}

// Schemas shared by the note tools. Their meaning is explained once, in
// the server's instructions, so they carry no description. An empty path
// is refused by the core, with INVALID_PATH and why.
var (
	pathProp            = req("path", str(""))
	expectedVersionProp = opt("expected_version", str(""))
	dryRunProp          = opt("dry_run", boolean(""))
	messageProp         = opt("message", str(""))
)

// mutationProps returns props followed by the versioning arguments.
func mutationProps(props ...prop) []prop {
	return append(props, expectedVersionProp, dryRunProp, messageProp)
}

// mutationResultProps describe wiki.Result as structured content.
func mutationResultProps() []prop {
	return []prop{
		opt("commit", str("The new commit (full sha); absent on a dry run or when nothing changed.")),
		opt("branch", str("The branch the commit went to.")),
		opt("dry_run", boolean("Set when this was a preview.")),
		req("changes", arrayOf("What happened to each note.", object("",
			req("path", str("Note path.")),
			req("file", str("The file in the repository.")),
			req("action", enum("", "created", "modified", "deleted", "moved")),
			opt("from", str("For a moved note, its old path.")),
			opt("old_version", str("Version before the change.")),
			opt("version", str("Version after the change; absent for a deleted note.")),
			req("additions", integer("Lines added.", 0, 1e9)),
			req("deletions", integer("Lines removed.", 0, 1e9)),
		))),
		opt("diff", str("Unified diff of the change; set on a dry run.")),
		req("risk", enum("How much of the touched notes the change rewrites or removes.", "low", "medium", "high")),
		req("summary", str("One line on what the change does.")),
		opt("metadata", object("Frontmatter before and after (update_metadata).",
			req("before", openObject("")), req("after", openObject("")))),
		opt("links_updated", arrayOf("The notes whose links a move rewrote.", linkedNoteSchema)),
		opt("broken_links", arrayOf("The notes whose links a move (with update_links false) or a delete left naming a note "+
			"that is gone: they now resolve to nothing (now absent) or to another note (now).", linkedNoteSchema)),
		opt("warnings", strList("Things to know, such as notes that now have broken links.")),
	}
}

// linkedNoteSchema describes wiki.LinkedNote.
var linkedNoteSchema = object("",
	req("path", str("The linking note, at its path after the change.")),
	req("links", arrayOf("Its links that the change affects.", object("",
		req("line", integer("The line of the link.", 1, 1e9)),
		req("old", str("The target as it was written.")),
		opt("new", str("The target as the move rewrote it.")),
		opt("now", str("The note the old target resolves to after the change.")),
	))),
)

// noteMutationOutput is a mutation of one note: the wiki's result plus
// the note's path and new version at the top.
type noteMutationOutput struct {
	*wiki.Result
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
}

func noteMutationSchema(desc string) *schema {
	return object(desc, append([]prop{
		req("path", str("The note's path.")),
		opt("version", str("The note's version after the change: pass it as expected_version next time. Absent after a delete.")),
	}, mutationResultProps()...)...)
}

func noteOutput(path string, res *wiki.Result) *noteMutationOutput {
	out := &noteMutationOutput{Result: res, Path: path}
	if len(res.Changes) == 1 {
		out.Path, out.Version = res.Changes[0].Path, res.Changes[0].Version
	}
	return out
}

// mutationText renders a mutation's outcome: headline says what was done
// ("Created note "Ideas" at projects/ideas"); a dry run shows what would
// change, the risk and the diff instead. Details are lines that go before
// the diff.
func mutationText(headline string, res *wiki.Result, details ...string) string {
	var b textBuilder
	switch {
	case res.DryRun && len(res.Changes) > 0:
		b.line("Dry run, nothing was committed. Would change:")
		changeLines(&b, res)
		b.line("Risk: %s. %s", res.Risk, sentence(res.Summary))
	case res.Commit == "":
		b.line("No change: the notes already read that way, so no commit was made.")
	case len(res.Changes) == 1:
		c := res.Changes[0]
		if c.Action == wiki.ActionDeleted {
			b.line("%s (commit %s on %s)", headline, shortID(res.Commit), res.Branch)
		} else {
			b.line("%s (+%d -%d; commit %s on %s, version %s)", headline, c.Additions, c.Deletions, shortID(res.Commit), res.Branch, shortID(c.Version))
		}
	default:
		b.line("%s as commit %s on %s:", headline, shortID(res.Commit), res.Branch)
		changeLines(&b, res)
	}
	for _, w := range res.Warnings {
		if res.Commit == "" && !res.DryRun && w == "the change leaves every note as it was; no commit was made" {
			continue // said above
		}
		b.line("Warning: %s", sentence(w))
	}
	for _, d := range details {
		b.line("%s", d)
	}
	if res.DryRun && res.Diff != "" {
		b.line("")
		b.line("%s", res.Diff)
	}
	return b.String()
}

func changeLines(b *textBuilder, res *wiki.Result) {
	for _, c := range res.Changes {
		v := ""
		if c.Version != "" {
			v = fmt.Sprintf(", version %s", shortID(c.Version))
		}
		if c.Action == wiki.ActionMoved {
			b.line("- moved %s → %s (+%d -%d%s)", c.From, c.Path, c.Additions, c.Deletions, v)
			continue
		}
		b.line("- %s %s (+%d -%d%s)", c.Action, c.Path, c.Additions, c.Deletions, v)
	}
}
