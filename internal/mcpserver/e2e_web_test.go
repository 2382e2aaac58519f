package mcpserver_test

import (
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestDaemon_WebCommand runs wikid web as a person would: it starts the
// repository's daemon with HTTP and prints the pages' address, which
// serves the changes timeline; a daemon without HTTP is named as the
// reason it cannot.
func TestDaemon_WebCommand(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"plan.md": "# Plan\n"})
	env := sharedEnv(t, dir)
	url := strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--repo", dir))
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Fatalf("wikid web printed %q", url)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "<h1>Changes</h1>") || !strings.Contains(string(body), "start") {
		t.Errorf("GET %s: %d\n%s", url, res.StatusCode, body)
	}
	if again := strings.TrimSpace(wikidCLI(t, env, "", "web", "--no-open", "--repo", dir)); again != url {
		t.Errorf("a second wikid web printed %q, not the running daemon's %q", again, url)
	}
	wikidCLI(t, env, "", "daemon", "stop", "--repo", dir)

	// A daemon without HTTP.
	wikidCLI(t, env, "", "daemon", "start", "--repo", dir)
	cmd := exec.Command(wikidBin, "web", "--no-open", "--repo", dir)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "serves no HTTP") {
		t.Errorf("wikid web with a daemon without HTTP: %v\n%s", err, out)
	}
}
