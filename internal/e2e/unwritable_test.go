//go:build unix

package e2e_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestServe_UnwritableRepository serves a repository this user cannot
// write: one owned by another user (when the test runs as root, wikid runs
// as nobody), else one made read-only with chmod -R a-w. wikid serves it
// read-only, says why in wiki_status, keeps its indexes in the user's cache
// folder, searches, and leaves the repository untouched.
func TestServe_UnwritableRepository(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "repo")
	gittest.Generate(t, dir, 30, 5)
	cache := filepath.Join(base, "cache")
	if err := os.MkdirAll(cache, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "wikid")
	data, err := os.ReadFile(wikidBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--repo", dir)
	cmd.Env = append(serveEnv(), "XDG_CACHE_HOME="+cache, "HOME="+cache)
	if os.Getuid() == 0 {
		// Another user: nobody, who may read and enter but not write.
		for _, d := range []string{filepath.Dir(base), base, cache} {
			os.Chmod(d, 0o777)
		}
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				os.Chmod(p, 0o755)
			} else if err == nil {
				os.Chmod(p, 0o644)
			}
			return nil
		})
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else {
		gittest.Git(t, dir, "status") // refresh the index first: git cannot later
		exec.Command("chmod", "-R", "a-w", dir).Run()
		t.Cleanup(func() { exec.Command("chmod", "-R", "u+w", dir).Run() })
	}
	before := gittest.Git(t, dir, "rev-parse", "HEAD")
	p := &rpcServe{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.in, p.out = in, bufio.NewReader(out)
	defer func() {
		in.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("wikid standard error:\n%s", p.stderr)
		}
	}()
	if _, err := p.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "reader", "version": "1"}}); err != nil {
		t.Fatalf("initialize: %v\n%s", err, p.stderr)
	}
	var st struct {
		ReadOnly   bool   `json:"read_only"`
		Unwritable string `json:"unwritable"`
		DerivedDir string `json:"derived_dir"`
	}
	if rpcStructured(t, p, "wiki_status", map[string]any{}, &st); !st.ReadOnly || st.Unwritable == "" || !strings.HasPrefix(st.DerivedDir, cache) {
		t.Errorf("wiki_status: %+v", st)
	}
	var sr struct {
		Total int `json:"total"`
	}
	if isErr := rpcStructured(t, p, "search_notes", map[string]any{"query": "note"}, &sr); isErr || sr.Total == 0 {
		t.Errorf("search_notes: error %v, %d results", isErr, sr.Total)
	}
	r, err := p.tool("write_note", map[string]any{"path": "new", "content": "# new\n"})
	if err != nil || !r.IsError || !strings.HasPrefix(r.text(), "READ_ONLY") {
		t.Errorf("write_note: %v %+v", err, r)
	} else if txt := r.text(); !strings.Contains(txt, "cannot be written") || strings.Contains(txt, "without --read-only") {
		t.Errorf("write_note does not say why it is refused: %s", txt)
	}
	if after := gittest.Git(t, dir, "rev-parse", "HEAD"); after != before {
		t.Errorf("HEAD moved: %s -> %s", before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "wikid")); err == nil {
		t.Errorf("wikid wrote its state into the repository")
	}
}
