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
			"areas/health/sleep — sleep\n",
			"Linked from 1 note:\n  areas/health/running:37  See the `log` property above; the [[sleep]] note tracks recovery.\n",
			"Links to 1 target:\n  line 12  café -> areas/café\n",
		}},
		{"broken links and depth", []string{"--depth", "2", "--direction", "out", "journal/2024/2024-01-16"}, []string{
			"  line 11  Project Gamma  broken: no such note\n",
			"  line 16  plan#No such heading  broken: no such heading\n",
			"\n2 links away (",
		}},
		{"a missing note", []string{"people/dave"}, []string{
			"No note people/dave.\n1 note still links to it:\n  journal/2024/2024-01-16:12  - Need to meet [[people/dave]]",
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
			"  line 16  Meeting -> Projects/Beta/Meeting (the name also names Projects/Alpha/Meeting)\n",
			"  line 13  Roadmap  broken: no such note\n",
			"  line 19  diagram.png -> attachments/diagram.png\n",
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
