package obsidian

import (
	"context"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `Obsidian vault tools over a git repository (served by wikid). Paths are vault-relative ` +
	`with their extension: Projects/AI Research.md. Every change is one git commit: nothing is lost, git history keeps it.`

var words = wiki.Words{
	"read": "read_note", "write": "create_note", "edit": "update_note", "metadata": "update_tags",
	"delete": "delete_note", "move": "move_note", "apply": "update_note",
	"list": "list_notes", "search": "search_notes", "resolve": "search_notes", "grep": "search_by_regex",
	"links": "get_backlinks", "broken_links": "find_broken_links", "tags": "list_tags", "sync": "git pull and git push",
	"history": "git log", "diff": "git diff", "blame": "git blame", "activity": "search_by_date",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "create_note",
	"expected_version": "a fresh read_note", "overwrite": "set overwrite: true", "regex_off": "search_notes",
	"read_only": "a read-only server", "version": "a commit",
	// A move's destination_path or destination_folder; one edit a call,
	// no count of matches, no pages.
	"new_path": "destination", "expected_matches": "", "edits": "", "cursor": "cursor", "next_cursor": "cursor",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true}
}

func toolSet() []*tool.Tool {
	return documented([]*tool.Tool{
		obRead(), obCreate(), obUpdate(), obDelete(),
		obSearch(), obSearchByDate(), obSearchByRegex(), obSearchByProperty(), obListNotes(), obListFolders(),
		obMoveNote(), obMoveFolder(), obCreateFolder(), obTags("add_tags"), obTags("update_tags"), obTags("remove_tags"),
		obNoteInfo(), obListTags(),
		obBacklinks(), obOutgoing(), obBroken(),
		obReadImage(), obNoteImages(),
	})
}

// obRun adapts an Obsidian tool: its answer is a JSON object as text.
func obRun[A any](in *tool.Schema, f func(ctx context.Context, s *tool.Env, a *A) (any, error)) tool.RunFunc {
	return tool.Bind(in, func(ctx context.Context, s *tool.Env, a *A) (any, string, error) {
		v, err := f(ctx, s, a)
		if err != nil {
			return nil, "", err
		}
		if c, ok := v.(tool.WithMedia); ok {
			return v, c.(interface{ text() string }).text(), nil
		}
		text, err := tool.PlainJSON(v)
		return nil, text, err
	})
}

// clipped is clip without its report.
func clipped(s string, n int) string {
	c, _ := tool.Clip(s, n)
	return c
}

func obPath(desc string) tool.Prop { return tool.Opt("path", tool.Str(desc)) }

func obInt(desc string, min, max, def float64) *tool.Schema {
	return (&tool.Schema{Type: "integer", Description: desc, Min: &min, Max: &max}).Def(def)
}

// obInRange checks an optional integer argument, def when absent.
func obInRange(arg string, v *int, min, max, def int) (int, error) {
	switch {
	case v == nil:
		return def, nil
	case *v < min || *v > max:
		return 0, tool.ArgError(arg, "is %d; give %d to %d", *v, min, max)
	}
	return *v, nil
}

// obFile is a note's path as Obsidian names it: with its extension.
func obFile(ctx context.Context, s *tool.Env, notePath string) string {
	if snap, err := tool.HeadSnapshot(ctx, s); err == nil {
		if f := tool.FileOf(ctx, snap, notePath); f != "" {
			return f
		}
	}
	return notePath + ".md"
}
