package mcpserver

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// The history tools that change the wiki: restore_note and revert_change.
// Both add one commit and never rewrite history.

type restoreArgs struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	mutationArgs
}

func restoreNoteTool() *tool {
	in := object("", mutationProps(
		pathProp,
		opt("version", str("The version to bring back: the commit (full or short sha, HEAD~N) whose content the note "+
			"gets again, as note_history lists them. Leave it out for a deleted note to bring back its last version.")),
	)...)
	return &tool{
		name: "restore_note", group: GroupHistory, mutating: true, idempotent: true, title: "Restore an old version",
		description: "Bring back a note's content from an older version, or a deleted note, as a new commit: history is " +
			"never rewritten, so the restore itself can be undone. Use note_history to pick the version and diff_versions " +
			"or dry_run to see what would change. A note renamed since keeps its current path; a deleted note comes back " +
			"at its old path. To undo one commit while keeping later changes, use revert_change instead.",
		input:  in,
		output: noteMutationSchema("The outcome."),
		run: bind(in, func(ctx context.Context, s *Server, a *restoreArgs) (any, string, error) {
			res, err := s.w.Restore(ctx, wiki.RestoreRequest{Path: a.Path, Version: a.Version, Mutation: a.mutation(s.caller(ctx))})
			if err != nil {
				return nil, "", err
			}
			out := noteOutput(a.Path, res)
			what := "the version of " + strings.TrimSpace(a.Version)
			if a.Version == "" {
				what = "its last version"
			}
			return out, mutationText("Restored note "+out.Path+" to "+what, res), nil
		}),
	}
}

type revertArgs struct {
	Commit  string `json:"commit"`
	DryRun  bool   `json:"dry_run"`
	Message string `json:"message"`
}

func revertChangeTool() *tool {
	in := object("",
		req("commit", &schema{Type: "string", MinLength: ptr(4),
			Description: "The commit to undo: a full or short sha, or HEAD~N, as activity_log and note_history list them."}),
		dryRunProp,
		messageProp,
	)
	return &tool{
		name: "revert_change", group: GroupHistory, mutating: true, title: "Undo a commit",
		description: "Undo what one commit did to notes, as a new commit (git revert): changed notes get the inverse change, " +
			"created notes are deleted, deleted notes come back, renamed notes move back. Later changes to the same notes " +
			"are kept: the inverse is merged into them line by line, and where it overlaps them nothing is changed and " +
			"the error is CONFLICT with the overlapping lines (then edit the notes by hand). Use activity_log or " +
			"note_history to find the commit and dry_run to preview. Merge commits cannot be reverted.",
		input:  in,
		output: object("The outcome.", mutationResultProps()...),
		run: bind(in, func(ctx context.Context, s *Server, a *revertArgs) (any, string, error) {
			res, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: a.Commit,
				Mutation: wiki.Mutation{DryRun: a.DryRun, Message: a.Message, Caller: s.caller(ctx)}})
			if err != nil {
				return nil, "", err
			}
			return res, mutationText("Reverted commit "+strings.TrimSpace(a.Commit), res), nil
		}),
	}
}
