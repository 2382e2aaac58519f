package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestInitCommand_daily: init puts daily notes where the vault keeps them,
// so that the first daily note wikid writes lands in that folder, never in
// a second one that differs in letter case only.
func TestInitCommand_daily(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		files  map[string]string
		config string // the daily: block of .wikid.yaml
		note   string // the file of 2024-06-03's daily note
		warn   string // said on stderr
	}{{
		name:   "a folder Daily, no Obsidian",
		files:  map[string]string{"Daily/2024-06-01.md": "- one\n", "Home.md": "# Home\n"},
		config: "daily:\n  # from the folder's own name\n  folder: \"Daily\"\n",
		note:   "Daily/2024-06-03.md",
	}, {
		name:   "no daily folder, no Obsidian",
		files:  map[string]string{"Home.md": "# Home\n"},
		config: "daily:\n  folder: \"daily\"\n",
		note:   "daily/2024-06-03.md",
	}, {
		name: "Obsidian's settings, in the folders' own case",
		files: map[string]string{
			".obsidian/daily-notes.json":  `{"folder": "Journal/daily/", "format": "YYYY-MM-DD", "template": "Templates/Day.md"}`,
			"journal/Daily/2024-06-01.md": "- one\n", "Templates/Day.md": "# {{date}}\n\n## Log\n",
		},
		config: "daily:\n  # from Obsidian's daily notes settings\n  folder: \"journal/Daily\"\n  template: \"Templates/Day\"\n",
		note:   "journal/Daily/2024-06-03.md",
	}, {
		name:   "Obsidian without daily notes settings: the plugin's default, the root",
		files:  map[string]string{".obsidian/app.json": "{}", "Home.md": "# Home\n"},
		config: "daily:\n  # from Obsidian's daily notes settings\n  folder: \"/\"\n",
		note:   "2024-06-03.md",
	}, {
		name: "Obsidian's daily notes turned off (a map of core plugins)",
		files: map[string]string{".obsidian/core-plugins.json": `{"daily-notes": false, "file-explorer": true}`,
			".obsidian/daily-notes.json": `{"folder": "Journal"}`, "DAILY/x.md": "x\n"},
		config: "daily:\n  # from the folder's own name\n  folder: \"DAILY\"\n",
		note:   "DAILY/2024-06-03.md",
	}, {
		name: "Obsidian's daily notes turned on (a list of core plugins)",
		files: map[string]string{".obsidian/core-plugins.json": `["file-explorer", "daily-notes"]`,
			".obsidian/daily-notes.json": `{"folder": "Journal", "format": "DD.MM.YYYY"}`},
		config: "daily:\n  # from Obsidian's daily notes settings\n  folder: \"Journal\"\n",
		note:   "Journal/2024-06-03.md",
		warn:   `wikid: Obsidian names daily notes "DD.MM.YYYY", wikid names them YYYY-MM-DD`,
	}, {
		name:   "unreadable settings",
		files:  map[string]string{".obsidian/daily-notes.json": `{"folder": `},
		config: "daily:\n  folder: \"daily\"\n",
		note:   "daily/2024-06-03.md",
		warn:   "wikid: read Obsidian's daily notes settings (.obsidian/daily-notes.json): unexpected end of JSON input; daily notes go to the folder daily",
	}} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "vault")
			gittest.WriteFiles(t, dir, tt.files)
			e, _, stderr := testEnv("", initEnv(map[string]string{"GIT_AUTHOR_NAME": "Ana", "GIT_AUTHOR_EMAIL": "ana@example.com"}))
			if err := (&initCommand{env: e}).Run(ctx, []string{dir}); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			cfg := gittest.Git(t, dir, "show", "HEAD:.wikid.yaml")
			if !strings.HasSuffix(cfg, "\n"+tt.config) {
				t.Errorf(".wikid.yaml:\n%s\nwant it to end with:\n%s", cfg, tt.config)
			}
			if tt.warn != "" && !strings.Contains(stderr.String(), tt.warn) {
				t.Errorf("stderr lacks %q:\n%s", tt.warn, stderr)
			} else if tt.warn == "" && stderr.Len() > 0 {
				t.Errorf("stderr:\n%s", stderr)
			}
			e, _, _ = testEnv("", nil)
			w, release, err := openWiki(ctx, e, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			if _, err := w.Daily(ctx, wiki.DailyRequest{Date: "2024-06-03", Op: note.OpAppend, Content: "- met Ana"}); err != nil {
				t.Fatal(err)
			}
			if got := gittest.Git(t, dir, "diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD"); got != tt.note+"\n" {
				t.Errorf("the daily note is %q, want %s", got, tt.note)
			}
		})
	}
}
