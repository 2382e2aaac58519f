package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestWindows_ServeUnderWine builds wikid for Windows and, where Wine is
// installed and can run it, serves a copy of fixtures/basic over stdio,
// searches it and writes a note: in its own process (WIKID_NO_DAEMON), and
// through a daemon on its named pipe, which the command line reaches too
// (search, status, stop). It
// skips without Wine, with -short, and with a Wine that cannot start Go's
// Windows binaries: one without bcryptprimitives.dll (Debian 12's Wine 8.0,
// for one), where Go's runtime stops with "fatal error:
// bcryptprimitives.dll not found". WIKID_WINE_DLLS may name a folder of
// DLLs to put in the Wine prefix's system32 (such as a
// bcryptprimitives.dll whose ProcessPrng calls RtlGenRandom, built with
// mingw-w64), for such a Wine.
func TestWindows_ServeUnderWine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wikid for Windows")
	}
	wine, err := exec.LookPath("wine")
	if err != nil {
		t.Skip("Wine is not installed")
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "wikid.exe")
	build := exec.Command("go", "build", "-o", exe, "../../cmd/wikid")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for Windows: %v\n%s", err, out)
	}
	env := append(os.Environ(), "WINEPREFIX="+filepath.Join(dir, "wine"), "WINEDEBUG=-all", "WIKID_NO_DAEMON=1")
	version := exec.Command(wine, exe, "version")
	version.Env = env
	out, err := version.CombinedOutput()
	if dlls := os.Getenv("WIKID_WINE_DLLS"); dlls != "" && strings.Contains(string(out), "bcryptprimitives.dll not found") {
		found, _ := filepath.Glob(filepath.Join(dlls, "*.dll"))
		for _, f := range found {
			b, err := os.ReadFile(f)
			if err == nil {
				err = os.WriteFile(filepath.Join(dir, "wine", "drive_c", "windows", "system32", filepath.Base(f)), b, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		version = exec.Command(wine, exe, "version")
		version.Env = env
		out, err = version.CombinedOutput()
	}
	if strings.Contains(string(out), "bcryptprimitives.dll not found") {
		v, _ := exec.Command(wine, "--version").Output()
		t.Skipf("%s cannot run Go's Windows binaries: it has no bcryptprimitives.dll, which Go's runtime needs",
			strings.TrimSpace(string(v)))
	}
	if err != nil || !strings.HasPrefix(string(out), "wikid ") {
		t.Fatalf("wine wikid.exe version: %v\n%s", err, out)
	}
	base := append(os.Environ(), "WINEPREFIX="+filepath.Join(dir, "wine"), "WINEDEBUG=-all")
	t.Run("in its own process", func(t *testing.T) { serveUnderWine(t, wine, exe, env, false) })
	t.Run("through the daemon", func(t *testing.T) { serveUnderWine(t, wine, exe, base, true) })
}

// serveUnderWine serves a copy of fixtures/basic with wine exe serve,
// searches it and writes a note; through the daemon, the command line
// finds the note through the same daemon, and stops it.
func serveUnderWine(t *testing.T, wine, exe string, env []string, daemon bool) {
	repo := fixtureRepo(t)
	// Wine's drive Z: is the root of the file system.
	winRepo := `Z:` + strings.ReplaceAll(repo, "/", `\`)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(wine, append([]string{exe}, args...)...)
		cmd.Env = env
		cmd.WaitDelay = 10 * time.Second // a daemon it started may hold its output open
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("wine wikid.exe %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	serve := exec.Command(wine, exe, "serve", "--repo", winRepo)
	serve.Env = env
	// Under Wine a daemon that serve starts keeps serve's output open
	// until it exits: stop it before waiting.
	serve.WaitDelay = 10 * time.Second
	p := startRPCCmd(t, serve)
	defer func() {
		if daemon {
			run("daemon", "stop", "--repo", winRepo)
		}
		p.in.Close()
		p.cmd.Wait()
	}()
	var res struct {
		Results []struct {
			Path string `json:"path"`
		} `json:"results"`
	}
	if rpcStructured(t, p, "search_notes", map[string]any{"query": "plan"}, &res); len(res.Results) == 0 {
		t.Errorf("search_notes under Wine found nothing\n%s", p.stderr)
	}
	rpcStructured(t, p, "write_note", map[string]any{"path": "windows/smoke", "content": "# Smoke\n\nwritten under Wine\n"}, &struct{}{})
	if rpcStructured(t, p, "search_notes", map[string]any{"query": "wine"}, &res); len(res.Results) != 1 || res.Results[0].Path != "windows/smoke" {
		t.Errorf("the note written under Wine is not found: %+v\n%s", res.Results, p.stderr)
	}
	if log := gittest.Git(t, repo, "log", "-1", "--format=%s"); !strings.Contains(log, "windows/smoke") {
		t.Errorf("git log -1: %q, want the commit of windows/smoke", log)
	}
	gittest.Fsck(t, repo)
	if !daemon {
		return
	}
	if st := run("daemon", "status", "--repo", winRepo); !strings.HasPrefix(st, "daemon pid ") {
		t.Errorf("wikid daemon status under Wine:\n%s\n%s", st, p.stderr)
	}
	if out := run("search", "wine", "--repo", winRepo); !strings.Contains(out, "windows/smoke") {
		t.Errorf("wikid search through the daemon does not find the note:\n%s", out)
	}
	if out := run("daemon", "stop", "--repo", winRepo); !strings.Contains(out, "daemon stopped") {
		t.Errorf("wikid daemon stop under Wine:\n%s", out)
	}
}
