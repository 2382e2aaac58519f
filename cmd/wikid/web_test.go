package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
)

// TestWebCommand_joinsRunningDaemon runs the daemon of a repository in
// this process, without HTTP, as 'wikid serve' starts it for an assistant,
// with an MCP client connected: wikid web has it serve the pages, prints
// their address, and the client's session goes on.
func TestWebCommand_joinsRunningDaemon(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start the plan", map[string]string{"plan.md": "# Plan\n"})
	rt, err := os.MkdirTemp("", "wkw") // short: socket paths are limited
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

	we, stdout, stderr := testEnv("", vars)
	if err := run(ctx, we, []string{"web", "--no-open", "--repo", dir}); err != nil {
		t.Fatalf("wikid web: %v\n%s", err, stderr)
	}
	url := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("wikid web printed %q", url)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "start the plan") {
		t.Errorf("GET %s: %d\n%.500s", url, res.StatusCode, body)
	}

	out := ask(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"plan"}}}`)
	if !strings.Contains(out, `"id":2`) || !strings.Contains(out, "# Plan") || strings.Contains(out, `"isError":true`) {
		t.Errorf("tools/call after wikid web: %.400s", out)
	}

	se, status, _ := testEnv("", vars)
	if err := run(ctx, se, []string{"daemon", "status", "--repo", dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(status.String(), "web         "+url+"\n") || !strings.Contains(status.String(), "1 MCP") {
		t.Errorf("daemon status does not give the pages' address %s with the client connected:\n%s", url, status)
	}

	// Again: the same address.
	ae, again, _ := testEnv("", vars)
	if err := run(ctx, ae, []string{"web", "--no-open", "--repo", dir}); err != nil || strings.TrimSpace(again.String()) != url {
		t.Errorf("a second wikid web printed %q (%v), want %q", again, err, url)
	}
}
