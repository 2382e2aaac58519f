package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/wikid/wikid/internal/gittest"
)

// TestStore_Commit_InGitCommitWindow lands a store commit while a `git
// commit` (after `git add`) has read HEAD and the index but not yet taken
// index.lock: the race the package documentation leaves open. A
// core.fsmonitor hook, which git runs when it reads the index, holds git
// there. git's commit must fail ("cannot lock ref") instead of committing
// over the store's; the index it wrote back lacks the store's change, which
// Commit then refuses to touch; after the person resets the index and
// stages again, both commits are in the history.
func TestStore_Commit_InGitCommitWindow(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is a shell script")
	}
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a0\n"})
	s := openStore(t, dir)
	pause, paused, resume := filepath.Join(dir, ".git", "pause"), filepath.Join(dir, ".git", "paused"), filepath.Join(dir, ".git", "resume")
	hook := filepath.Join(dir, ".git", "fsmonitor-pause")
	script := fmt.Sprintf(`#!/bin/sh
# The first git command that reads the index after %[1]s appears waits here
# until %[3]s appears.
if [ -e %[1]q ]; then
	rm -f %[1]q
	: > %[2]q
	i=0
	while [ ! -e %[3]q ] && [ $i -lt 2000 ]; do sleep 0.01; i=$((i+1)); done
fi
exit 1
`, pause, paused, resume)
	if err := os.WriteFile(hook, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "config", "core.fsmonitor", hook)
	gittest.WriteFiles(t, dir, map[string]string{"theirs.md": "theirs\n"})
	gittest.Git(t, dir, "add", "theirs.md")

	if err := os.WriteFile(pause, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "commit", "-q", "-m", "by git")
	cmd.Dir, cmd.Env = dir, gittest.Env()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// If the test stops early, let git go and wait for it.
	defer cmd.Wait()
	defer os.WriteFile(resume, nil, 0o644)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(paused); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("git commit did not run the fsmonitor hook")
		}
	}

	ours := mustCommit(t, s, request(rev(t, dir, "HEAD"), "ours", map[string]string{"a.md": "a1\n"}))
	if err := os.WriteFile(resume, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if err == nil || !strings.Contains(out.String(), "cannot lock ref") {
		t.Fatalf("git commit in the window = %v\n%s\nwant it to fail with cannot lock ref", err, out.String())
	}
	if got := rev(t, dir, "HEAD"); got != ours {
		t.Fatalf("HEAD = %s, want the store's commit %s", got, ours)
	}
	if got := gittest.Git(t, dir, "cat-file", "blob", "HEAD:a.md"); got != "a1\n" {
		t.Errorf("HEAD:a.md = %q", got)
	}
	// git wrote back the index it read before the store's commit.
	if got := gittest.Git(t, dir, "cat-file", "blob", ":a.md"); got != "a0\n" {
		t.Errorf("the index has a.md = %q; git no longer writes back the index it read "+
			"before it locked it? Then update the package documentation", got)
	}
	_, err = s.Commit(ctx, request(ours, "ours again", map[string]string{"a.md": "a2\n"}))
	if wiki.CodeOf(err) != wiki.CodeLocalChanges || !strings.Contains(err.Error(), "a.md (staged changes)") {
		t.Errorf("Commit over the index git wrote back = %v, want LOCAL_CHANGES naming a.md", err)
	}

	// The person resets the index to HEAD (read under index.lock) and
	// commits again.
	gittest.Git(t, dir, "read-tree", "--reset", "HEAD")
	gittest.Git(t, dir, "add", "theirs.md")
	gittest.Git(t, dir, "commit", "-q", "-m", "by git")
	if got := rev(t, dir, "HEAD^"); got != ours {
		t.Errorf("HEAD^ = %s, want the store's commit %s", got, ours)
	}
	id, err := s.Commit(ctx, request(rev(t, dir, "HEAD"), "ours again", map[string]string{"a.md": "a2\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if d := gittest.Git(t, dir, "diff", "--name-status", ours, id); d != "M\ta.md\nA\ttheirs.md\n" {
		t.Errorf("git diff %s %s:\n%s", ours, id, d)
	}
	checkCheckout(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": "a2\n", "theirs.md": "theirs\n"})
}
