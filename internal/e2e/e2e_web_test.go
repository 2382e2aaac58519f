package e2e_test

import (
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestDaemon_WebCommand runs wikid web as a person would: it starts the
// repository's daemon with HTTP and prints the pages' address, which
// serves the changes timeline; a daemon that an assistant's wikid serve
// started without HTTP adds it, and the assistant's session goes on.
func TestDaemon_WebCommand(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"plan.md": "# Plan\n"})
	env := sharedEnv(t, dir)
	url := strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--repo", dir))
	checkPages(t, url)
	if again := strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--repo", dir)); again != url {
		t.Errorf("a second wikid web printed %q, not the running daemon's %q", again, url)
	}
	wikidCLI(t, env, "", "daemon", "stop", "--repo", dir)

	// A daemon without HTTP, started by an assistant's wikid serve.
	p := startRPCEnv(t, dir, env)
	defer func() {
		p.in.Close()
		p.cmd.Wait()
	}()
	var before struct {
		Notes int `json:"notes"`
	}
	rpcStructured(t, p, "wiki_status", map[string]any{}, &before)
	st := daemonStatus(t, env, dir)
	if st["web"] != nil || st["clients"].(map[string]any)["mcp"].(float64) != 1 {
		t.Fatalf("the assistant's daemon: %v", st)
	}
	url = strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--repo", dir))
	checkPages(t, url)
	after := daemonStatus(t, env, dir)
	if after["pid"] != st["pid"] || after["web"] != url || after["clients"].(map[string]any)["mcp"].(float64) != 1 {
		t.Errorf("after wikid web, the daemon is pid %v (was %v), web %v (want %s), clients %v",
			after["pid"], st["pid"], after["web"], url, after["clients"])
	}
	var note struct {
		Content string `json:"content"`
	}
	if rpcStructured(t, p, "read_note", map[string]any{"path": "plan"}, &note); !strings.Contains(note.Content, "# Plan") {
		t.Errorf("the assistant's read_note after wikid web: %q", note.Content)
	}
}

// TestDaemon_WebIdleExit: a daemon that wikid web starts stays up while
// its pages are asked for, and exits its idle time after the last request.
func TestDaemon_WebIdleExit(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"plan.md": "# Plan\n"})
	env := sharedEnv(t, dir)
	// The idle time is 5 s, or ten times what a command of the binary
	// takes here and now, if that is longer: the test asks for pages
	// within a quarter of it, after a status command.
	t0 := time.Now()
	status := exec.Command(wikidBin, "daemon", "status", "--repo", dir)
	status.Env = env
	status.Run() // no daemon yet: it says so

	idle := max(5*time.Second, 10*time.Since(t0)).Round(time.Second)
	url := strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--idle", idle.String(), "--repo", dir))
	if st := daemonStatus(t, env, dir); st["idle"] != idle.String() {
		t.Errorf("the daemon's idle time is %v, want %v", st["idle"], idle)
	}
	var last time.Time
	// A page every idle/4, so that a slow request on a busy machine still
	// comes well within the idle time; the idle time starts after the
	// daemon answered, so after the request was sent.
	for range 8 {
		last = time.Now()
		checkPages(t, url)
		time.Sleep(idle / 4)
	}
	for {
		cmd := exec.Command(wikidBin, "daemon", "status", "--repo", dir)
		cmd.Env = env
		if err := cmd.Run(); err != nil {
			if since := time.Since(last); since < idle {
				t.Errorf("the daemon exited %v after the last page request, before its idle time %v", since, idle)
			}
			return
		}
		if time.Since(last) > idle+20*time.Second {
			t.Fatal("the daemon did not exit after its last page request")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// checkPages gets the pages at url, which must be the changes timeline.
func checkPages(tb testing.TB, url string) {
	tb.Helper()
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		tb.Fatalf("wikid web printed %q", url)
	}
	res, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "<h1>Changes</h1>") || !strings.Contains(string(body), "start") {
		tb.Errorf("GET %s: %d\n%s", url, res.StatusCode, body)
	}
}
