package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// fixtureCheckout returns a checkout of fixtures/<name> in one commit.
func fixtureCheckout(tb testing.TB, name string) string {
	tb.Helper()
	return gittest.CopyRepo(tb, filepath.Join("..", "..", "fixtures", name))
}

func TestLinksCommand_Run(t *testing.T) {
	dir := fixtureCheckout(t, "basic")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a note", []string{"areas/health/sleep"}, []string{
			"Links of sleep (areas/health/sleep)\n",
			"Backlinks from 1 note:\n- **Running** (areas/health/running)\n  1 link - line 37\n  37: See the `log` property above; the [[sleep]] note tracks recovery.\n",
			"Outgoing links (1):\n- line 12: café → Café Lumière (areas/café)\n",
		}},
		{"broken links and depth", []string{"--depth", "2", "--direction", "out", "journal/2024/2024-01-16"}, []string{
			"- line 11: Project Gamma → broken: no such note\n",
			"- line 16: plan#No such heading → broken: no such heading\n",
			"\n6 notes 2 links away:\n",
		}},
		{"a missing note", []string{"people/dave"}, []string{
			"Note people/dave does not exist.\n\nHowever, 1 note has links to this path:\n- **2024-01-16** (journal/2024/2024-01-16)\n  1 link - line 12\n  12: - Need to meet [[people/dave]]",
		}},
		{"json", []string{"--json", "--direction", "in", "index"}, []string{`"incoming_total": 3`, `"exists": true`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, stdout, stderr := testEnv("", nil)
			if err := (&linksCommand{env: e}).Run(context.Background(), append([]string{"--repo", dir}, tt.args...)); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
	t.Run("same-named notes", func(t *testing.T) {
		e, stdout, stderr := testEnv("", nil)
		if err := (&linksCommand{env: e}).Run(context.Background(), []string{"--repo", fixtureCheckout(t, "obsidian"), "--direction", "out", "Home"}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		for _, w := range []string{
			"- line 16: Meeting → Beta meeting (Projects/Beta/Meeting; the name also names Projects/Alpha/Meeting)\n",
			"- line 13: Roadmap → broken: no such note\n",
			"- line 19: diagram.png → attachments/diagram.png\n",
		} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
	})
	e, _, _ := testEnv("", nil)
	if err := (&linksCommand{env: e}).Run(context.Background(), []string{"--repo", dir}); err != exitError(2) {
		t.Errorf("no path: %v", err)
	}
}
