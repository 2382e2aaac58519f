package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/mcpserver"
)

// startTestDaemon runs the daemon of the repository at dir in this process
// until the test ends, in a runtime folder of its own, and returns the
// environment variables that find it.
func startTestDaemon(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	rt, err := os.MkdirTemp("", "wkd") // short: socket paths are limited
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
	return vars
}

// askDaemon connects an MCP client to the daemon of dir and returns a
// function that sends it a line and returns its answer's line.
func askDaemon(t *testing.T, vars map[string]string, dir string) func(line string) string {
	t.Helper()
	ctx := context.Background()
	e, _, _ := testEnv("", vars)
	ep, err := endpoint(e, dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := daemon.ConnectMCP(ctx, ep, daemon.MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r := bufio.NewReader(c)
	ask := func(line string) string {
		t.Helper()
		if _, err := io.WriteString(c, line+"\n"); err != nil {
			t.Fatal(err)
		}
		// The answer is the first line without a method: a notification
		// (resources/list_changed after a commit) may come before it.
		for {
			out, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			var msg struct {
				Method string `json:"method"`
			}
			if json.Unmarshal([]byte(out), &msg) == nil && msg.Method != "" {
				continue
			}
			return out
		}
	}
	return ask
}
