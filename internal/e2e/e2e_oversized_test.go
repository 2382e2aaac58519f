package e2e_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/wiki"
)

// TestDaemon_OversizedRequest sends a call over the size limit from the
// official TypeScript client, which writes the id after the params,
// through `wikid serve` to the daemon: the client gets an error with the
// request's id within a timeout far shorter than its usual one (an
// unanswered request would end in a timeout error instead), the next
// call on the same session works, and the daemon never went away.
func TestDaemon_OversizedRequest(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := t.TempDir()
	gittest.Generate(t, dir, 20, 5)
	env := sharedEnv(t, dir)
	bridge := startBridge(t)
	req := stdioRequest(wikidBin, "--repo", dir)
	req["env"] = envMap(env)
	c := connectTS(t, bridge, req)
	c.listTools(t)
	pid := daemonStatus(t, env, dir)["pid"]
	_, err := bridge.do(map[string]any{"op": "call", "client": c.id, "name": "write_note", "timeout": 30_000,
		"arguments": map[string]any{"path": "big", "content": strings.Repeat("x", mcpserver.MaxRequestBytes)}})
	if err == nil || !strings.Contains(err.Error(), "too large") || !strings.Contains(err.Error(), "code -32600") {
		t.Fatalf("an oversized call: %v, want the error -32600 request too large", err)
	}
	res, _ := tsOK[wiki.Result](t, c, "write_note", map[string]any{"path": "after", "content": "# after\n"})
	if res.Commit == "" {
		t.Errorf("the call after the oversized one made no commit: %+v", res)
	}
	if now := daemonStatus(t, env, dir)["pid"]; now != pid {
		t.Errorf("the daemon is pid %v, and was %v before the oversized call", now, pid)
	}
	c.close(t)
}
