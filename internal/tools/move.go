package tools

import (
	"context"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type moveArgs struct {
	Path        string `json:"path"`
	NewPath     string `json:"new_path"`
	UpdateLinks *bool  `json:"update_links"`
	mutationArgs
}

// moveOutput is a move's result with the old and new paths at the top.
type moveOutput struct {
	*wiki.Result
	From string `json:"from"`
	Path string `json:"path"`
	// Version is the moved note's version, for a note.
	Version string `json:"version,omitempty"`
}

func (a *moveArgs) request(c wiki.Caller) wiki.MoveRequest {
	return wiki.MoveRequest{Path: a.Path, NewPath: a.NewPath, LeaveLinks: a.UpdateLinks != nil && !*a.UpdateLinks, Mutation: a.mutation(c)}
}

// change makes the move a step of apply_changes.
func (a *moveArgs) change(c wiki.Caller) wiki.Change {
	r := a.request(c)
	return wiki.Change{Move: &r}
}

func moveNoteInput() *tool.Schema {
	return tool.Object("", mutationProps(
		tool.Req("path", &tool.Schema{Type: "string", MinLength: tool.Ptr(1)}),
		tool.Req("new_path", &tool.Schema{Type: "string", MinLength: tool.Ptr(1)}),
		tool.Opt("update_links", tool.Boolean("").Def(true)),
	)...)
}

func moveNoteTool() *tool.Tool {
	in := moveNoteInput()
	return &tool.Tool{
		Name: "move_note", Group: tool.GroupNotes, Mutating: true, Title: "Move or rename a note or folder",
		Description: "Move or rename a note or folder (path ending in /), rewriting links to it. Use it, not " +
			"write_note plus delete_note.",
		Input: in,
		Output: tool.Object("The outcome.", append([]tool.Prop{
			tool.Req("from", tool.Str("The old path (a folder ends in /).")),
			tool.Req("path", tool.Str("The new path (a folder ends in /).")),
			tool.Opt("version", tool.Str("The moved note's version: pass it as expected_version next time. Absent for a folder.")),
		}, mutationResultProps()...)...),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *moveArgs) (any, string, error) {
			res, err := s.Wiki.Move(ctx, a.request(s.Caller))
			if err != nil {
				return nil, "", err
			}
			out := &moveOutput{Result: res, From: a.Path, Path: a.NewPath}
			var moved []wiki.NoteChange
			for _, c := range res.Changes {
				if c.Action == wiki.ActionMoved {
					moved = append(moved, c)
				}
			}
			if len(moved) == 1 && moved[0].From != "" {
				out.From, out.Path, out.Version = moved[0].From, moved[0].Path, moved[0].Version
			}
			return out, render.Moved(a.Path, a.NewPath, res, a.UpdateLinks == nil || *a.UpdateLinks), nil
		}),
	}
}
