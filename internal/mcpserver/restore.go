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
		opt("version", str("")),
	)...)
	return &tool{
		name: "restore_note", group: GroupHistory, mutating: true, idempotent: true, title: "Restore an old version",
		description: "Bring back a note (even a deleted one) as of version, a commit. Use revert_change to undo one commit.",
		input:       in,
		output:      noteMutationSchema("The outcome.").without("metadata", "links_updated", "broken_links"),
		run: bind(in, func(ctx context.Context, s *Env, a *restoreArgs) (any, string, error) {
			res, err := s.Wiki.Restore(ctx, wiki.RestoreRequest{Path: a.Path, Version: a.Version, Mutation: a.mutation(s.Caller)})
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
		req("commit", &schema{Type: "string", MinLength: ptr(4)}),
		dryRunProp,
		messageProp,
	)
	return &tool{
		name: "revert_change", group: GroupHistory, mutating: true, title: "Undo a commit",
		description: "Undo one commit's note changes, keeping later edits (CONFLICT if they overlap). Use restore_note for a " +
			"whole old version.",
		input:  in,
		output: object("The outcome.", mutationResultProps()...).without("metadata", "links_updated", "broken_links"),
		run: bind(in, func(ctx context.Context, s *Env, a *revertArgs) (any, string, error) {
			res, err := s.Wiki.Revert(ctx, wiki.RevertRequest{Commit: a.Commit,
				Mutation: wiki.Mutation{DryRun: a.DryRun, Message: a.Message, Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			return res, mutationText("Reverted commit "+strings.TrimSpace(a.Commit), res), nil
		}),
	}
}
