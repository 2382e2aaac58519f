package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestWindows_ServeUnderWine builds wikid for Windows and, where Wine is
// installed and can run it, serves a copy of fixtures/basic over stdio in
// its own process (WIKID_NO_DAEMON), searches it and writes a note. It
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
	repo := fixtureRepo(t)
	// Wine's drive Z: is the root of the file system.
	serve := exec.Command(wine, exe, "serve", "--repo", `Z:`+strings.ReplaceAll(repo, "/", `\`))
	serve.Env = env
	p := startRPCCmd(t, serve)
	defer func() {
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
}
