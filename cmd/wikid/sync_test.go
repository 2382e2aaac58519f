package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestSyncCommand_inTheDaemon runs the daemon of a clone without a sync:
// block: wikid sync runs in it with the daemon's own syncer, which the
// daemon handed it, so that wiki_status tells of that round; until then it
// says how to sync.
func TestSyncCommand_inTheDaemon(t *testing.T) {
	ctx := context.Background()
	seed := gittest.Init(t)
	gittest.Commit(t, seed, "start the plan", map[string]string{"plan.md": "# Plan\n"})
	remote := gittest.InitBare(t)
	gittest.Git(t, seed, "push", "-q", remote, "HEAD:refs/heads/main")
	dir := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, filepath.Dir(dir), "clone", "-q", "-b", "main", remote, dir)
	vars := startTestDaemon(t, dir)
	ask := askDaemon(t, vars, dir)
	ask(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"assistant","version":"1"}}}`)
	status := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wiki_status","arguments":{}}}`

	if out := ask(status); !strings.Contains(out, "sync is not configured") {
		t.Errorf("wiki_status before a round: %.600s", out)
	}
	gittest.Commit(t, dir, "a person's edit", map[string]string{"person.md": "# Person\n"})
	se, stdout, stderr := testEnv("", vars)
	if err := run(ctx, se, []string{"sync", "--repo", dir}); err != nil {
		t.Fatalf("wikid sync: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout.String(), "origin/main: nothing to integrate, pushed") {
		t.Errorf("wikid sync printed %q", stdout)
	}
	if out := ask(status); !strings.Contains(out, "synced with origin/main") {
		t.Errorf("wiki_status after wikid sync in the daemon: %.600s", out)
	}
	if got, want := strings.TrimSpace(gittest.Git(t, remote, "rev-parse", "main")), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); got != want {
		t.Errorf("the remote is at %s, the clone at %s", got, want)
	}
}
