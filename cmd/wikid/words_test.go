package main

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestCLIWords(t *testing.T) {
	tests := []struct{ in, want string }{
		{"restore it with restore_note (path a) if this was a mistake", "restore it with wikid restore (path a) if this was a mistake"},
		{"set overwrite: true to replace it, or change part of it with edit_note", "set --overwrite to replace it, or change part of it with wikid edit"},
		{"check the path with list_notes or find it with search_notes or resolve_notes",
			"check the path with wikid search folder:FOLDER or find it with wikid search"},
		{"edit the notes by hand (read them, then edit_note), or restore_note a version", "edit the notes by hand (read them, then wikid edit), or wikid restore a version"},
		{"retry with expected_version set to its current version", "retry with --expected-version set to its current version"},
		{"pick a commit from note_history.", "pick a commit from wikid history."},
		// Names inside paths, quotes and longer words stay.
		{`no note "restore_note"`, `no note "restore_note"`},
		{"no note projects/restore_note", "no note projects/restore_note"},
		{"the my_restore_note tool", "the my_restore_note tool"},
		{"daily_note and wiki_status have no command", "daily_note and wiki_status have no command"},
	}
	for _, tt := range tests {
		if got := cliWords(tt.in); got != tt.want {
			t.Errorf("cliWords(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestRun_CLIWords checks a warning the core writes in MCP words as the
// command line prints it.
func TestRun_CLIWords(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
	out := runOK(t, dir, "", "rm", "a")
	if !strings.Contains(out, "warning: restore it with wikid restore (path a)") || strings.Contains(out, "restore_note") {
		t.Errorf("wikid rm:\n%s", out)
	}
}
