package tools

import (
	"github.com/wikid/wikid/internal/tool"
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
	pathProp            = tool.Req("path", tool.Str(""))
	expectedVersionProp = tool.Opt("expected_version", tool.Str(""))
	dryRunProp          = tool.Opt("dry_run", tool.Boolean(""))
	messageProp         = tool.Opt("message", tool.Str(""))
)

// mutationProps returns props followed by the versioning arguments.
func mutationProps(props ...tool.Prop) []tool.Prop {
	return append(props, expectedVersionProp, dryRunProp, messageProp)
}

// mutationResultProps describe wiki.Result as structured content.
func mutationResultProps() []tool.Prop {
	return []tool.Prop{
		tool.Opt("commit", tool.Str("The new commit (full sha); absent on a dry run or when nothing changed.")),
		tool.Opt("branch", tool.Str("The branch the commit went to.")),
		tool.Opt("dry_run", tool.Boolean("Set when this was a preview.")),
		tool.Req("changes", tool.ArrayOf("What happened to each note.", tool.Object("",
			tool.Req("path", tool.Str("Note path.")),
			tool.Req("file", tool.Str("The file in the repository.")),
			tool.Req("action", tool.Enum("", "created", "modified", "deleted", "moved")),
			tool.Opt("from", tool.Str("For a moved note, its old path.")),
			tool.Opt("old_version", tool.Str("Version before the change.")),
			tool.Opt("version", tool.Str("Version after the change; absent for a deleted note.")),
			tool.Req("additions", tool.Integer("Lines added.", 0, 1e9)),
			tool.Req("deletions", tool.Integer("Lines removed.", 0, 1e9)),
		))),
		tool.Opt("diff", tool.Str("Unified diff of the change; set on a dry run.")),
		tool.Req("risk", tool.Enum("How much of the touched notes the change rewrites or removes.", "low", "medium", "high")),
		tool.Req("summary", tool.Str("One line on what the change does.")),
		tool.Opt("metadata", tool.Object("Frontmatter before and after (update_metadata).",
			tool.Req("before", tool.OpenObject("")), tool.Req("after", tool.OpenObject("")))),
		tool.Opt("links_updated", tool.ArrayOf("The notes whose links a move rewrote.", linkedNoteSchema)),
		tool.Opt("broken_links", tool.ArrayOf("The notes whose links a move (with update_links false) or a delete left naming a note "+
			"that is gone: they now resolve to nothing (now absent) or to another note (now).", linkedNoteSchema)),
		tool.Opt("warnings", tool.StrList("Things to know, such as notes that now have broken links.")),
	}
}

// linkedNoteSchema describes wiki.LinkedNote.
var linkedNoteSchema = tool.Object("",
	tool.Req("path", tool.Str("The linking note, at its path after the change.")),
	tool.Req("links", tool.ArrayOf("Its links that the change affects.", tool.Object("",
		tool.Req("line", tool.Integer("The line of the link.", 1, 1e9)),
		tool.Req("old", tool.Str("The target as it was written.")),
		tool.Opt("new", tool.Str("The target as the move rewrote it.")),
		tool.Opt("now", tool.Str("The note the old target resolves to after the change.")),
	))),
)

// noteMutationOutput is a mutation of one note: the wiki's result plus
// the note's path and new version at the top.
type noteMutationOutput struct {
	*wiki.Result
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
}

func noteMutationSchema(desc string) *tool.Schema {
	return tool.Object(desc, append([]tool.Prop{
		tool.Req("path", tool.Str("The note's path.")),
		tool.Opt("version", tool.Str("The note's version after the change: pass it as expected_version next time. Absent after a delete.")),
	}, mutationResultProps()...)...)
}

func noteOutput(path string, res *wiki.Result) *noteMutationOutput {
	out := &noteMutationOutput{Result: res, Path: path}
	if len(res.Changes) == 1 {
		out.Path, out.Version = res.Changes[0].Path, res.Changes[0].Version
	}
	return out
}
