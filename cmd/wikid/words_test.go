package main

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestCLIWords checks that the command line has words for every reference
// the core writes.
func TestCLIWords(t *testing.T) {
	if missing := cliWords.Missing(); len(missing) > 0 {
		t.Errorf("no command line words for %v", missing)
	}
}

// TestRun_CLIWords checks a warning the core writes in MCP words as the
// command line prints it.
func TestRun_CLIWords(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
	out := runOK(t, dir, "", "rm", "a")
	if !strings.Contains(out, "Warning: restore it with wikid restore (path a)") || strings.Contains(out, "restore_note") {
		t.Errorf("wikid rm:\n%s", out)
	}
}
