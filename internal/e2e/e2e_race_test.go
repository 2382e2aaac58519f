package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/gittest"
)

// personLoop is what a person does in the wiki's checkout while
// assistants write: edit a note and git commit -a, pull from a second
// clone (with git pull, or git fetch and git merge; concluding a merge git
// left half done, as a person would) and git gc --auto, until $END. Failed
// pulls' messages go to $PULL_LOG.
const personLoop = `
i=0
while [ ! -f "$STOP" ] && [ "$(date +%s)" -lt "$END" ]; do
  i=$((i+1))
  echo "edit $i" >> person.md
  git commit -q -a -m "person $i" 2>/dev/null
  if [ $((i % 2)) = 0 ]; then
    (cd "$THEIRS" && mkdir -p remote && echo "remote $i" > "remote/r$i.md" && git add -A && git commit -q -m "remote $i")
    if [ $((i % 4)) = 0 ]; then
      git pull -q --no-rebase --no-edit "$THEIRS" main >>"$PULL_LOG" 2>&1
    else
      git fetch -q "$THEIRS" main >>"$PULL_LOG" 2>&1 && git merge -q --no-edit FETCH_HEAD >>"$PULL_LOG" 2>&1
    fi
    if [ $? != 0 ] && [ -f .git/MERGE_HEAD ]; then
      git commit -q --no-edit 2>/dev/null
    fi
  fi
  [ $((i % 10)) = 0 ] && git gc --auto --quiet 2>/dev/null
done
echo "$i"
`

// TestDaemon_RaceWithGit has 8 MCP clients write and edit notes through
// the daemon over HTTP while a shell loop, in the same checkout, runs git
// commit -a, git pull from a second clone and git gc --auto, until the
// clients are done: each makes a fixed number of calls, so the campaign's
// work does not shrink on a slow machine. Git reads the index without its lock, so the person's commands can
// drop from HEAD what wikid just acknowledged; the daemon's guard must put
// it back. At the end every acknowledged note is at HEAD with its last
// acknowledged content.
//
// It runs alone, not in parallel: other tests' processes widen the windows
// the person's git commands race wikid in, as the race detector would.
func TestDaemon_RaceWithGit(t *testing.T) {
	calls := 24 // per client: a write, then two edits, of 8 notes
	if testing.Short() {
		calls = 12
	}
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "start", map[string]string{"README.md": "# Wiki\n", "person.md": "# Person\n"})
	theirs := filepath.Join(t.TempDir(), "theirs")
	gittest.Git(t, filepath.Dir(theirs), "clone", "-q", dir, theirs)
	env := sharedEnv(t, dir)
	const token = "race-test"
	// Without the race detector, as a person runs wikid: the detector
	// slows wikid several times over and widens the windows the person's
	// git commands race it in past what the guard is meant for (a note
	// dropped twice before the guard's first restore lands; see the
	// guard's doc). The detector runs in the other suites.
	p := startBinary(t, measuredBin(t), env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}

	pullLog := filepath.Join(t.TempDir(), "pull.log")
	person := exec.Command("sh", "-c", personLoop)
	person.Dir = dir
	stop := filepath.Join(t.TempDir(), "stop")
	// END only bounds a loop whose test failed before it could stop it.
	person.Env = append(gittest.Env(), fmt.Sprintf("END=%d", time.Now().Add(10*time.Minute).Unix()), "STOP="+stop,
		"THEIRS="+theirs, "PULL_LOG="+pullLog)
	var personOut strings.Builder
	person.Stdout = &personOut
	if err := person.Start(); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	acked := map[string]string{} // note file → last acknowledged content
	refused := map[string]int{}  // error code → count
	var wg sync.WaitGroup
	for w := range 8 {
		c := connectHTTP(t, p.url, map[string]string{"Authorization": "Bearer " + token}, "")
		wg.Go(func() {
			for k := range calls {
				path := fmt.Sprintf("w%d/n%d", w, k/3)
				file := path + ".md"
				mu.Lock()
				prev := acked[file]
				mu.Unlock()
				var req mcp.CallToolRequest
				if k%3 == 0 {
					req.Params.Name = "write_note"
					req.Params.Arguments = map[string]any{"path": path, "content": fmt.Sprintf("# Note %d %d\n", w, k/3)}
				} else if prev != "" {
					req.Params.Name = "edit_note"
					req.Params.Arguments = map[string]any{"path": path, "edits": []any{map[string]any{"op": "append", "content": fmt.Sprintf("- edit %d", k)}}}
				} else {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				res, err := c.CallTool(ctx, req)
				cancel()
				if err != nil {
					t.Errorf("%s %s: %v", req.Params.Name, path, err)
					return
				}
				var out struct {
					Commit string `json:"commit"`
					Error  struct {
						Code string `json:"code"`
					} `json:"error"`
				}
				if err := json.Unmarshal(structuredJSON(t, res), &out); err != nil {
					t.Errorf("%s %s: %v", req.Params.Name, path, err)
					return
				}
				if res.IsError {
					// LOCAL_CHANGES, LOCKED or CONFLICT while git holds the checkout.
					mu.Lock()
					refused[out.Error.Code]++
					mu.Unlock()
					continue
				}
				// What was acknowledged is what the commit holds.
				content, err := gittest.TryGit(dir, "show", out.Commit+":"+file)
				if err != nil {
					t.Errorf("%s %s acknowledged commit %s without the note: %v", req.Params.Name, path, out.Commit, err)
					continue
				}
				mu.Lock()
				acked[file] = content
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := person.Wait(); err != nil {
		t.Fatalf("the person's loop: %v", err)
	}

	// The guard looks at HEAD twice a second; give it time to catch up with
	// the person's last commands.
	missing := func() []string {
		var out []string
		for file, want := range acked {
			if got, err := gittest.TryGit(dir, "show", "HEAD:"+file); err != nil || got != want {
				out = append(out, file)
			}
		}
		return out
	}
	lost := missing()
	for end := time.Now().Add(10 * time.Second); len(lost) > 0 && time.Now().Before(end); lost = missing() {
		time.Sleep(200 * time.Millisecond)
	}
	for _, file := range lost {
		got, err := gittest.TryGit(dir, "show", "HEAD:"+file)
		t.Errorf("%s at HEAD: %q (%v), last acknowledged %q; its history:\n%s", file, got, err, acked[file],
			gittest.Git(t, dir, "log", "--format=%h %p %an: %s", "--stat", "-m", "--first-parent", "HEAD", "--", file))
	}
	gittest.Fsck(t, dir)

	pulls, _ := os.ReadFile(pullLog)
	raced := strings.Count(string(pulls), "cannot lock ref")
	t.Logf("pull log:\n%s", pulls)
	restores := strings.Count(gittest.Git(t, dir, "log", "--format=%s", "HEAD"), "restore: changes dropped by")
	t.Logf("%d notes acknowledged by 8 clients, refusals %v; the person ran %s rounds, %d pulls lost the race for HEAD; the guard made %d restore commits; %d notes not at HEAD as acknowledged",
		len(acked), refused, strings.TrimSpace(personOut.String()), raced, restores, len(lost))
	if len(acked) < 20 {
		t.Errorf("only %d notes acknowledged: the campaign did not write enough to race", len(acked))
	}
}
