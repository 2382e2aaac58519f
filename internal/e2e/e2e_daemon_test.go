package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// sharedEnv is the environment of a wikid that uses the repository's
// daemon: serveEnv without WIKID_NO_DAEMON, with a runtime folder of the
// test's own. The test's cleanup stops the daemon of dir.
func sharedEnv(tb testing.TB, dir string) []string { return daemonEnv(tb, wikidBin, dir, true) }

// sharedEnvFor is sharedEnv for the daemon of another wikid binary: the
// test's cleanup stops it with that binary. A binary that has no daemon
// serves in its own process and ignores the runtime folder.
func sharedEnvFor(tb testing.TB, bin, dir string) []string { return daemonEnv(tb, bin, dir, false) }

// daemonEnv is sharedEnv with bin's daemon; with mustStop, a stop that
// fails fails the test.
func daemonEnv(tb testing.TB, bin, dir string, mustStop bool) []string {
	tb.Helper()
	// A short folder: unix socket paths are limited to about 104 bytes.
	rt, err := os.MkdirTemp("", "wkd")
	if err != nil {
		tb.Fatal(err)
	}
	var env []string
	for _, kv := range serveEnv() {
		if kv != "WIKID_NO_DAEMON=1" {
			env = append(env, kv)
		}
	}
	env = append(env, "WIKID_RUNTIME_DIR="+rt)
	tb.Cleanup(func() {
		stop := exec.Command(bin, "daemon", "stop", "--repo", dir)
		stop.Env = env
		if out, err := stop.CombinedOutput(); err != nil && mustStop {
			tb.Errorf("wikid daemon stop: %v\n%s", err, out)
		}
		if tb.Failed() {
			logs, _ := exec.Command("sh", "-c", "cat "+rt+"/*.log").Output()
			tb.Logf("daemon log:\n%s", logs)
		}
		os.RemoveAll(rt)
	})
	return env
}

// wikidCLI runs a wikid command with env and stdin, and returns its
// standard output; a failure fails the test.
func wikidCLI(tb testing.TB, env []string, stdin string, args ...string) string {
	tb.Helper()
	cmd := exec.Command(wikidBin, args...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("wikid %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// daemonStatus returns `wikid daemon status --json` for dir.
func daemonStatus(tb testing.TB, env []string, dir string) map[string]any {
	tb.Helper()
	var st map[string]any
	if err := json.Unmarshal([]byte(wikidCLI(tb, env, "", "daemon", "status", "--json", "--repo", dir)), &st); err != nil {
		tb.Fatal(err)
	}
	return st
}

// TestDaemon_SharedClients puts four stdio clients with different names,
// one HTTP client and command lines on one repository at once, all through
// its daemon: every call answers, every commit names the client that made
// it, and each client sees the others' writes as soon as they are
// acknowledged.
func TestDaemon_SharedClients(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := t.TempDir()
	gittest.Generate(t, dir, 300, 60)
	env := sharedEnv(t, dir)

	// The daemon serves HTTP too; stdio clients and commands share it.
	const token = "shared-test"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	bridge := startBridge(t)
	const stdioClients = 4
	var clients []*tsClient
	var names []string
	for i := range stdioClients {
		req := stdioRequest(wikidBin, "--repo", dir)
		req["env"] = envMap(env)
		name := fmt.Sprintf("agent-%c", 'a'+i)
		req["client"] = map[string]string{"name": name, "version": "1.0"}
		c := connectTS(t, bridge, req)
		c.listTools(t)
		clients, names = append(clients, c), append(names, name)
	}
	httpReq := httpRequest(p.url, token)
	httpReq["client"] = map[string]string{"name": "agent-http", "version": "2.0"}
	hc := connectTS(t, bridge, httpReq)
	hc.listTools(t)
	clients, names = append(clients, hc), append(names, "agent-http")

	st := daemonStatus(t, env, dir)
	if mcp := st["clients"].(map[string]any)["mcp"].(float64); mcp != stdioClients {
		t.Errorf("daemon status counts %v MCP connections, want %d (HTTP sessions are not connections)", mcp, stdioClients)
	}
	pid := int(st["pid"].(float64))
	if pid == p.cmd.Process.Pid {
		t.Logf("the HTTP server is the daemon (pid %d)", pid)
	} else {
		t.Errorf("the daemon is pid %d, not the wikid serve --http that started first (pid %d)", pid, p.cmd.Process.Pid)
	}

	// Every client writes its notes while the others write theirs and a
	// command line writes too; after each acknowledged write, the next
	// client in the ring reads it back and finds it by search.
	const rounds = 6
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for i, c := range clients {
		next := clients[(i+1)%len(clients)]
		wg.Go(func() {
			for r := range rounds {
				path := fmt.Sprintf("shared/%s/note-%d", names[i], r)
				word := fmt.Sprintf("zq%sr%d", strings.ReplaceAll(names[i], "-", ""), r)
				res, err := c.tryCall("write_note", map[string]any{"path": path, "content": "# " + path + "\n\n" + word + "\n"})
				if err != nil || res.IsError {
					errs <- fmt.Errorf("%s write_note %s: %v %s", names[i], path, err, resText(res))
					return
				}
				res, err = next.tryCall("read_note", map[string]any{"path": path})
				if err != nil || res.IsError || !strings.Contains(res.text(), word) {
					errs <- fmt.Errorf("the client after %s does not read %s at once: %v %s", names[i], path, err, resText(res))
				}
				res, err = next.tryCall("search_notes", map[string]any{"query": word})
				if err != nil || res.IsError || !strings.Contains(string(res.StructuredContent), path) {
					errs <- fmt.Errorf("the client after %s does not find %s at once: %v %s", names[i], path, err, resText(res))
				}
			}
		})
	}
	wg.Go(func() {
		for r := range rounds {
			path := fmt.Sprintf("shared/cli/note-%d", r)
			cmd := exec.Command(wikidBin, "write", path, "--repo", dir, "--author", "Person <person@example.com>")
			cmd.Env, cmd.Stdin = env, strings.NewReader(fmt.Sprintf("# cli %d\n\nzqcli%d\n", r, r))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("wikid write %s: %v\n%s", path, err, out)
				return
			}
			res, err := clients[r%len(clients)].tryCall("read_note", map[string]any{"path": path})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("an MCP client does not read %s written by the command line: %v %s", path, err, resText(res))
			}
			search := exec.Command(wikidBin, "search", fmt.Sprintf("zqcli%d", r), "--repo", dir)
			search.Env = env
			if out, err := search.CombinedOutput(); err != nil || !strings.Contains(string(out), path) {
				errs <- fmt.Errorf("wikid search does not find %s at once: %v\n%s", path, err, out)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// Each note's one commit names the client that wrote it.
	for _, name := range append(slices.Clone(names), "cli") {
		for r := range rounds {
			path := fmt.Sprintf("shared/%s/note-%d.md", name, r)
			log := gittest.Git(t, dir, "log", "--format=%an%x09%(trailers:key=Wiki-Client,valueonly,separator=)", "--", path)
			want := name
			if name == "cli" {
				want = "Person"
			}
			if lines := strings.Split(strings.TrimSpace(log), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], want+"\t") {
				t.Errorf("%s: commits %q, want one by %s", path, log, want)
			}
		}
	}
	// The command line sees what the MCP clients wrote, as the daemon does.
	out := wikidCLI(t, env, "", "search", "zqagentbr2", "--repo", dir, "--json")
	var sr wiki.SearchResult
	if err := json.Unmarshal([]byte(out), &sr); err != nil || sr.Total != 1 {
		t.Errorf("wikid search in the daemon: %v\n%s", err, out)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status after the run:\n%s", got)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-dangling")
	for _, c := range clients {
		c.close(t)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := daemonStatus(t, env, dir)
		if st["clients"].(map[string]any)["mcp"].(float64) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon still counts clients after they all closed: %v", st["clients"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// envMap turns KEY=value pairs into the map the TypeScript client takes.
func envMap(env []string) map[string]string {
	m := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// resText is a result's text, or "" for none.
func resText(r *tsResult) string {
	if r == nil {
		return ""
	}
	return r.text()
}

// TestDaemon_BridgeSurvivesDaemonKill kills the daemon under a connected
// client (the official TypeScript client over stdio): the bridge connects
// to a new daemon and replays the handshake, so the client keeps its
// session and its name, and the wiki recovers.
func TestDaemon_BridgeSurvivesDaemonKill(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := t.TempDir()
	gittest.Generate(t, dir, 50, 10)
	env := sharedEnv(t, dir)
	bridge := startBridge(t)
	req := stdioRequest(wikidBin, "--repo", dir)
	req["env"] = envMap(env)
	req["client"] = map[string]string{"name": "survivor", "version": "3"}
	c := connectTS(t, bridge, req)
	c.listTools(t)
	for round := range 3 {
		path := fmt.Sprintf("survive/note-%d", round)
		tsOK[map[string]any](t, c, "write_note", map[string]any{"path": path, "content": "# round\n"})
		pid := int(daemonStatus(t, env, dir)["pid"].(float64))
		if err := signalPID(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// The next call, on the same session, reaches a new daemon. One
		// that goes unanswered for a minute is a hang: the daemon is asked
		// for its goroutines (SIGQUIT writes them to its log, which the
		// test prints) and the test fails.
		watch := time.AfterFunc(time.Minute, func() {
			t.Errorf("round %d: read_note after the kill unanswered for a minute; the daemon's goroutines follow in its log", round)
			status := exec.Command(wikidBin, "daemon", "status", "--json", "--repo", dir)
			status.Env = env
			var st struct{ PID int }
			if out, err := status.Output(); err == nil && json.Unmarshal(out, &st) == nil && st.PID > 0 {
				signalPID(st.PID, syscall.SIGQUIT)
			}
		})
		res, _ := tsOK[wiki.ReadResult](t, c, "read_note", map[string]any{"path": path})
		watch.Stop()
		if res.Path != path {
			t.Fatalf("read %s after the kill: %+v", path, res)
		}
		if now := int(daemonStatus(t, env, dir)["pid"].(float64)); now == pid {
			t.Fatalf("round %d: the daemon is still pid %d after it was killed", round, pid)
		}
	}
	tsOK[map[string]any](t, c, "write_note", map[string]any{"path": "survive/last", "content": "# last\n"})
	if got := gittest.Git(t, dir, "log", "-1", "--format=%an", "--", "survive/last.md"); strings.TrimSpace(got) != "survivor" {
		t.Errorf("the commit after the kills is by %q, want the client's name", got)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("git status:\n%s", got)
	}
	gittest.Git(t, dir, "fsck", "--strict", "--no-dangling")
	c.close(t)
}

// callWithProgress calls a tool over p with a progress token and returns
// the result's structured content and how many progress notifications came
// before it.
func callWithProgress(tb testing.TB, p *rpcServe, name string, args map[string]any) (json.RawMessage, int) {
	tb.Helper()
	p.id++
	id := p.id
	if err := p.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{
		"name": name, "arguments": args, "_meta": map[string]any{"progressToken": fmt.Sprintf("p%d", id)}}}); err != nil {
		tb.Fatal(err)
	}
	notes := 0
	for {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			tb.Fatalf("%s: %v\n%s", name, err, p.stderr)
		}
		var m struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Token    string  `json:"progressToken"`
				Progress float64 `json:"progress"`
			} `json:"params"`
			Result struct {
				IsError    bool            `json:"isError"`
				Structured json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			tb.Fatalf("%s: %v: %s", name, err, line)
		}
		switch {
		case m.Method == "notifications/progress" && m.Params.Token == fmt.Sprintf("p%d", id):
			notes++
		case m.ID == id:
			if m.Result.IsError {
				tb.Fatalf("%s: %s", name, line)
			}
			return m.Result.Structured, notes
		}
	}
}

// TestDaemon_RightAnswersFromTheFirstCall connects to a fresh clone of a
// generated 10,000-note repository, with no index yet, through the
// daemon: a search issued at once, and a list of tags from a second client
// at the same time, answer with the whole wiki (the same answers as after
// the build), with progress notifications while they wait; none answers
// from part of the notes.
func TestDaemon_RightAnswersFromTheFirstCall(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 10,000-note repository")
	}
	dir := t.TempDir()
	gittest.Generate(t, dir, 10000, 2000)
	env := sharedEnv(t, dir)
	a := startRPCEnv(t, dir, env)
	b := startRPCEnv(t, dir, env)
	defer func() {
		for _, p := range []*rpcServe{a, b} {
			p.in.Close()
			p.cmd.Wait()
		}
	}()
	search := map[string]any{"query": "note tag:project", "limit": 20}
	var first, tags json.RawMessage
	var progress int
	var wg sync.WaitGroup
	wg.Go(func() { first, progress = callWithProgress(t, a, "search_notes", search) })
	wg.Go(func() { tags, _ = callWithProgress(t, b, "list_tags", map[string]any{}) })
	wg.Wait()
	var st struct {
		Index struct {
			CaughtUp bool `json:"caught_up"`
		} `json:"index"`
	}
	rpcStructured(t, a, "wiki_status", map[string]any{}, &st)
	if !st.Index.CaughtUp {
		t.Errorf("the index is not caught up after a search waited for it")
	}
	again, _ := callWithProgress(t, a, "search_notes", search)
	tagsAgain, _ := callWithProgress(t, b, "list_tags", map[string]any{})
	if string(first) != string(again) {
		t.Errorf("the first search answered\n%.400s\nand the one after the build\n%.400s", first, again)
	}
	if string(tags) != string(tagsAgain) {
		t.Errorf("the first list_tags answered\n%.400s\nand the one after the build\n%.400s", tags, tagsAgain)
	}
	var res struct {
		Total int `json:"total"`
	}
	if json.Unmarshal(first, &res); res.Total == 0 {
		t.Errorf("the search found nothing: %s", first)
	}
	if progress == 0 {
		t.Errorf("no progress notification while the first search waited for the build")
	}
	t.Logf("first search: %d results, after %d progress notifications", res.Total, progress)
}

// TestDaemon_FallbackInProcess gives wikid a runtime folder it must refuse
// (others can enter it): `wikid serve` says so on standard error and
// serves in its own process, and commands run in process too.
func TestDaemon_FallbackInProcess(t *testing.T) {
	dir := t.TempDir()
	gittest.Generate(t, dir, 10, 3)
	rt := t.TempDir()
	if err := os.Chmod(rt, 0o777); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range serveEnv() {
		if kv != "WIKID_NO_DAEMON=1" {
			env = append(env, kv)
		}
	}
	env = append(env, "WIKID_RUNTIME_DIR="+rt)
	p := startRPCEnv(t, dir, env)
	var st struct {
		Notes int `json:"notes"`
	}
	if rpcStructured(t, p, "wiki_status", map[string]any{}, &st); st.Notes != 10 {
		t.Errorf("wiki_status in process: %d notes", st.Notes)
	}
	p.in.Close()
	p.cmd.Wait()
	if msg := p.stderr.String(); !strings.Contains(msg, "serving in this process instead") || !strings.Contains(msg, "chmod 700") {
		t.Errorf("standard error does not say why wikid serves in process:\n%s", msg)
	}
	if out := wikidCLI(t, env, "", "search", "note", "--repo", dir); !strings.Contains(out, "results") {
		t.Errorf("wikid search without a daemon:\n%s", out)
	}
}

// signalPID sends sig to the process pid.
func signalPID(pid int, sig os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}
