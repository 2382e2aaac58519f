package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestWebCommand_joinsRunningDaemon runs the daemon of a repository in
// this process, without HTTP, as 'wikid serve' starts it for an assistant,
// with an MCP client connected: wikid web has it serve the pages, prints
// their address, and the client's session goes on.
func TestWebCommand_joinsRunningDaemon(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start the plan", map[string]string{"plan.md": "# Plan\n"})
	vars := startTestDaemon(t, dir)
	ask := askDaemon(t, vars, dir)
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
