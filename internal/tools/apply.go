package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// maxBatch is how many changes one apply_changes call may hold.
const maxBatch = 100

// stepArgs are the arguments of a tool that can be a step of a batch.
type stepArgs interface {
	change(wiki.Caller) wiki.Change
}

// stepTool is a tool apply_changes accepts: its arguments without dry_run
// and message, which belong to the batch.
type stepTool struct {
	input *tool.Schema
	args  func() stepArgs
}

func stepTools() map[string]stepTool {
	step := func(in *tool.Schema) *tool.Schema { return in.Without("dry_run", "message") }
	return map[string]stepTool{
		"write_note":      {step(writeNoteInput()), func() stepArgs { return &writeArgs{} }},
		"edit_note":       {step(editNoteInput()), func() stepArgs { return &editArgs{} }},
		"update_metadata": {step(updateMetadataInput()), func() stepArgs { return &metadataArgs{} }},
		"delete_note":     {step(deleteNoteInput()), func() stepArgs { return &deleteArgs{} }},
		"move_note":       {step(moveNoteInput()), func() stepArgs { return &moveArgs{} }},
	}
}

type applyArgs struct {
	Changes []struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"changes"`
	DryRun  bool   `json:"dry_run"`
	Message string `json:"message"`
}

func applyChangesTool() *tool.Tool {
	in := tool.Object("",
		tool.Req("changes", &tool.Schema{Type: "array", MinItems: tool.Ptr(1), MaxItems: tool.Ptr(maxBatch),
			Items: tool.Object("",
				tool.Req("tool", tool.Enum("", "move_note", "write_note", "edit_note", "update_metadata", "delete_note")),
				tool.Req("arguments", tool.OpenObject("")),
			)}),
		dryRunProp,
		messageProp,
	)
	return &tool.Tool{
		Name: "apply_changes", Group: tool.GroupNotes, Mutating: true, Destructive: true, Title: "Change several notes in one commit",
		Description: "Several note changes as one commit, all or nothing. Use it when notes must change together.",
		Input:       in,
		Output:      tool.Object("The outcome.", mutationResultProps()...),
		Run:         tool.Bind(in, runApply),
	}
}

func runApply(ctx context.Context, s *tool.Env, a *applyArgs) (any, string, error) {
	tools := stepTools()
	caller := s.Caller
	req := wiki.ApplyRequest{Mutation: wiki.Mutation{DryRun: a.DryRun, Message: a.Message, Caller: caller}}
	for i, c := range a.Changes {
		st := tools[c.Tool] // the schema's enum admits only these
		args := st.args()
		if err := tool.DecodeArgsAt(c.Arguments, st.input, args, fmt.Sprintf("changes[%d].arguments", i)); err != nil {
			return nil, "", err
		}
		req.Changes = append(req.Changes, args.change(caller))
	}
	res, err := s.Wiki.Apply(ctx, req)
	if err != nil {
		return nil, "", err
	}
	return res, render.Mutation("Applied "+render.Plural(len(a.Changes), "change"), res), nil
}
