package obsidian_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/profiles/obsidian"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// vault is an Obsidian vault: a note three others link to (one twice),
// and a folder of two notes.
var vault = map[string]string{
	"Inbox/Idea.md":       "# Idea\n\nA thought.\n",
	"Daily/2024-01-15.md": "# Monday\n\nHad an [[Idea]].\n",
	"Daily/2024-01-16.md": "# Tuesday\n\nThe [[Idea]] again, and [[Idea|that one]].\n",
	"Projects/Plan.md":    "# Plan\n\nFrom [[Idea]]. See [[Old/A]].\n",
	"Old/A.md":            "# A\n\nSee [[B]].\n",
	"Old/B.md":            "# B\n",
}

// moveResult is the seed's Move Operations structure.
type moveResult struct {
	Success     bool
	Source      string
	Destination string
	Type        string
	Details     map[string]any
}

// TestMoveNote_Details checks the seed's Move Operations structure: one
// note moved is items_moved 1, a folder the notes in it, and
// links_updated counts the links rewritten, however many notes hold them.
func TestMoveNote_Details(t *testing.T) {
	c := profiletest.Serve(t, obsidian.Profile(), vault)
	var note moveResult
	c.JSON("move_note", map[string]any{"source_path": "Inbox/Idea.md", "destination_path": "Archive/Old Idea.md"}, &note)
	if !note.Success || note.Type != "note" || note.Source != "Inbox/Idea.md" || note.Destination != "Archive/Old Idea.md" {
		t.Errorf("move_note: %+v", note)
	}
	checkDetails(t, "move_note", note.Details, 1, 4)
	for _, f := range []string{"Daily/2024-01-15.md", "Daily/2024-01-16.md", "Projects/Plan.md"} {
		if body := gittest.Git(t, c.Dir, "show", "HEAD:"+f); strings.Contains(body, "[[Idea") {
			t.Errorf("%s still links to the old name:\n%s", f, body)
		}
	}

	var folder moveResult
	c.JSON("move_folder", map[string]any{"source_folder": "Old", "destination_folder": "Attic"}, &folder)
	if !folder.Success || folder.Type != "folder" || folder.Source != "Old" || folder.Destination != "Attic" {
		t.Errorf("move_folder: %+v", folder)
	}
	checkDetails(t, "move_folder", folder.Details, 2, 1)

	var still moveResult
	c.JSON("move_note", map[string]any{"source_path": "Attic/B.md", "destination_path": "Attic/C.md", "update_links": false}, &still)
	checkDetails(t, "move_note without update_links", still.Details, 1, 0)
}

// checkDetails checks a move's details: the seed's items_moved and
// links_updated, and nothing about the notes relinked, which the seed
// does not report.
func checkDetails(t *testing.T, what string, details map[string]any, moved, links int) {
	t.Helper()
	if details["items_moved"] != float64(moved) || details["links_updated"] != float64(links) {
		t.Errorf("%s: items_moved %v, links_updated %v; want %d and %d", what, details["items_moved"], details["links_updated"], moved, links)
	}
	for k := range details {
		switch k {
		case "items_moved", "links_updated", "commit":
		default:
			t.Errorf("%s: details has %s, which the seed does not report: %v", what, k, details)
		}
	}
}
