package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
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
	rt, err := os.MkdirTemp("", "wks") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(rt) })
	vars := map[string]string{"WIKID_RUNTIME_DIR": rt}
	e, _, _ := testEnv("", vars)
	ep, err := endpoint(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	dctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		logger := slog.New(slog.DiscardHandler)
		done <- runDaemon(dctx, e, logger, daemonSettings{repo: dir, idle: time.Hour,
			mcp: mcpserver.Options{Version: version, Logger: logger}})
	}()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("the daemon: %v", err)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		if _, err := daemon.GetStatus(ctx, ep); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the daemon does not answer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	c, err := daemon.ConnectMCP(ctx, ep, daemon.MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	ask := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(c, line+"\n"); err != nil {
			t.Fatal(err)
		}
		out, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
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
