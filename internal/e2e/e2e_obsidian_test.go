package e2e_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestE2E_ObsidianVault checks over stdio, with the official TypeScript
// client, that a repository with an .obsidian/ folder resolves links as
// Obsidian does: find_broken_links lists what Obsidian shows unresolved,
// get_links says which of two same-named notes a bare name chose, and a
// rename leaves no link naming the old file.
func TestE2E_ObsidianVault(t *testing.T) {
	dir := gittest.CopyRepo(t, filepath.Join("..", "..", "fixtures", "obsidian"))
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir))

	type brokenLink struct {
		Path, Target, Heading, Reason, To string
		Line                              int
	}
	broken := func() []string {
		res, _ := tsOK[struct {
			Links []brokenLink `json:"links"`
			Total int          `json:"total"`
		}](t, c, "find_broken_links", map[string]any{})
		out := []string{}
		for _, l := range res.Links {
			s := fmt.Sprintf("%s:%d %s", l.Path, l.Line, l.Target)
			if l.Heading != "" {
				s += "#" + l.Heading
			}
			if l.To != "" {
				s += " in " + l.To
			}
			out = append(out, s+" ("+l.Reason+")")
		}
		return out
	}
	// titles and aliases do not resolve; attachments, block references,
	// labels and paths do
	want := []string{
		"Home:10 Plan#^no-such-block in Projects/Alpha/Plan (no block ^no-such-block)",
		"Home:12 Alpha Plan (no such note)",
		"Home:13 Roadmap (no such note)",
		"Home:15 Ada (no such note)",
		"Home:22 missing.png (no such file)",
		"Home:23 Nowhere#Intro (no such note)",
	}
	if got := broken(); !reflect.DeepEqual(got, want) {
		t.Errorf("find_broken_links =\n%q\nwant\n%q", got, want)
	}

	links, text := tsOK[struct {
		Outgoing []struct {
			Line      int      `json:"line"`
			Target    string   `json:"target"`
			Path      string   `json:"path"`
			Ambiguous []string `json:"ambiguous"`
		} `json:"outgoing"`
	}](t, c, "get_links", map[string]any{"path": "Home", "direction": "out", "limit": 50})
	var meeting []string
	for _, l := range links.Outgoing {
		if l.Target == "Meeting" {
			meeting = append(meeting, l.Path)
			meeting = append(meeting, l.Ambiguous...)
		}
	}
	if !reflect.DeepEqual(meeting, []string{"Projects/Beta/Meeting", "Projects/Alpha/Meeting"}) {
		t.Errorf("[[Meeting]] resolves to and also names %q, want Projects/Beta/Meeting and Projects/Alpha/Meeting", meeting)
	}
	if !strings.Contains(text, "the name also names Projects/Alpha/Meeting") {
		t.Errorf("get_links text does not say which Meeting was chosen:\n%s", text)
	}

	// rename the plan: every link naming its file follows
	tsOK[map[string]any](t, c, "move_note", map[string]any{"path": "Projects/Alpha/Plan", "new_path": "Projects/Alpha/Launch"})
	out, err := exec.Command("git", "-C", dir, "grep", "-n", "-E", `\[\[([^]|#]*/)?Plan[]|#.]|Plan\.md`, "HEAD").CombinedOutput()
	if err == nil || len(out) > 0 {
		t.Errorf("links still name Plan after the move (%v):\n%s", err, out)
	}
	want[0] = "Home:10 Launch#^no-such-block in Projects/Alpha/Launch (no block ^no-such-block)"
	if got := broken(); !reflect.DeepEqual(got, want) {
		t.Errorf("find_broken_links after the move =\n%q\nwant\n%q", got, want)
	}
}
