package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// The history tools that change the wiki: restore_note and revert_change.
// Both add one commit and never rewrite history.

type restoreArgs struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	mutationArgs
}

func restoreNoteTool() *tool.Tool {
	in := tool.Object("", mutationProps(
		pathProp,
		tool.Opt("version", tool.Str("")),
	)...)
	return &tool.Tool{
		Name: "restore_note", Group: tool.GroupHistory, Mutating: true, Idempotent: true, Title: "Restore an old version",
		Description: "Bring back a note (even a deleted one) as of version, a commit. Use revert_change to undo one commit.",
		Input:       in,
		Output:      noteMutationSchema("The outcome.").Without("metadata", "links_updated", "broken_links"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *restoreArgs) (any, string, error) {
			res, err := s.Wiki.Restore(ctx, wiki.RestoreRequest{Path: a.Path, Version: a.Version, Mutation: a.mutation(s.Caller)})
			if err != nil {
				return nil, "", err
			}
			return noteOutput(a.Path, res), render.Restored(a.Path, a.Version, res), nil
		}),
	}
}

type revertArgs struct {
	Commit  string `json:"commit"`
	DryRun  bool   `json:"dry_run"`
	Message string `json:"message"`
}

func revertChangeTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("commit", &tool.Schema{Type: "string", MinLength: tool.Ptr(4)}),
		dryRunProp,
		messageProp,
	)
	return &tool.Tool{
		Name: "revert_change", Group: tool.GroupHistory, Mutating: true, Title: "Undo a commit",
		Description: "Undo one commit's note changes, keeping later edits (CONFLICT if they overlap). Use restore_note for a " +
			"whole old version.",
		Input:  in,
		Output: tool.Object("The outcome.", mutationResultProps()...).Without("metadata", "links_updated", "broken_links"),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *revertArgs) (any, string, error) {
			res, err := s.Wiki.Revert(ctx, wiki.RevertRequest{Commit: a.Commit,
				Mutation: wiki.Mutation{DryRun: a.DryRun, Message: a.Message, Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			return res, render.Reverted(a.Commit, res), nil
		}),
	}
}
