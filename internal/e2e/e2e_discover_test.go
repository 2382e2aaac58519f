package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestDaemon_FoundFromAnyEnvironment starts a daemon with one runtime
// folder, then reaches it with a stdio client, `wikid search`, `wikid log`
// and `wikid daemon status` from another runtime folder and from an
// environment that names none (no WIKID_RUNTIME_DIR, no XDG_RUNTIME_DIR):
// every one finds the one daemon through the repository, and none starts
// a second one (which would fail with LOCKED, the search index being the
// first one's).
func TestDaemon_FoundFromAnyEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.Generate(t, dir, 30, 5)
	env := sharedEnv(t, dir)
	wikidCLI(t, env, "", "daemon", "start", "--repo", dir)
	pid := daemonStatus(t, env, dir)["pid"].(float64)

	other, err := os.MkdirTemp("", "wkd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	var elsewhere, nowhere []string
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "WIKID_RUNTIME_DIR="):
			elsewhere = append(elsewhere, "WIKID_RUNTIME_DIR="+other)
		case strings.HasPrefix(kv, "XDG_RUNTIME_DIR="):
		default:
			elsewhere, nowhere = append(elsewhere, kv), append(nowhere, kv)
		}
	}
	for _, tc := range []struct {
		name string
		env  []string
	}{{"another runtime folder", elsewhere}, {"no runtime folder named", nowhere}} {
		t.Run(tc.name, func(t *testing.T) {
			p := startRPCEnv(t, dir, tc.env)
			var st struct {
				Notes int `json:"notes"`
			}
			if rpcStructured(t, p, "wiki_status", map[string]any{}, &st); st.Notes != 30 {
				t.Errorf("wiki_status over stdio: %d notes, want 30\n%s", st.Notes, p.stderr)
			}
			clients := daemonStatus(t, env, dir)["clients"].(map[string]any)
			if clients["mcp"].(float64) != 1 {
				t.Errorf("the daemon has %v MCP clients, want the stdio client's 1\n%s", clients["mcp"], p.stderr)
			}
			p.in.Close()
			p.cmd.Wait()

			wikidCLI(t, tc.env, "", "search", "--repo", dir, "note")
			if out := wikidCLI(t, tc.env, "", "log", "--repo", dir); out == "" {
				t.Error("wikid log printed nothing")
			}
			if got := daemonStatus(t, tc.env, dir)["pid"].(float64); got != pid {
				t.Errorf("wikid daemon status names pid %v, want the daemon's %v", got, pid)
			}
		})
	}
	if socks, _ := filepath.Glob(filepath.Join(other, "*.sock")); len(socks) > 0 {
		t.Errorf("a second daemon listened in the other runtime folder: %v", socks)
	}
	if got := daemonStatus(t, env, dir)["pid"].(float64); got != pid {
		t.Errorf("the daemon is pid %v now, want %v", got, pid)
	}
}
