package tools

import (
	"context"
	"fmt"
	"strings"

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
			what := "note"
			if len(moved) != 1 {
				what = fmt.Sprintf("folder (%s)", tool.Plural(len(moved), "note"))
			}
			return out, moveText(fmt.Sprintf("Moved %s from %s to %s", what, out.From, out.Path), res, a.UpdateLinks == nil || *a.UpdateLinks), nil
		}),
	}
}

// moveText renders a move in the style of the seeds: the headline, then the
// notes whose links were updated or still point at the old path.
func moveText(headline string, res *wiki.Result, updating bool) string {
	var details []string
	if len(res.LinksUpdated) > 0 {
		verb := "Updated"
		if res.DryRun {
			verb = "Would update"
		}
		details = append(details, "", fmt.Sprintf("%s links in %s:", verb, tool.Plural(len(res.LinksUpdated), "note")))
		for _, n := range res.LinksUpdated {
			details = append(details, fmt.Sprintf("- %s (%s)", n.Path, tool.Plural(len(n.Links), "link")))
		}
	}
	if len(res.BrokenLinks) > 0 {
		details = append(details, "", fmt.Sprintf("%s %s links that now point to the old path:", tool.Plural(len(res.BrokenLinks), "note"),
			verb(len(res.BrokenLinks), "has", "have")))
		for _, n := range res.BrokenLinks {
			details = append(details, fmt.Sprintf("- %s (%s)", n.Path, tool.Plural(len(n.Links), "link")))
		}
		if !updating {
			details = append(details, "", "Use update_links: true to update these links.")
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
	return mutationText(headline, &shown, details...)
}
