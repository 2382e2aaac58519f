package e2e_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestServe_StdioParseErrors writes to `wikid serve` over stdio what it
// cannot parse: a request nested 100,000 levels deep is answered -32700
// with its id, and the session goes on; a line without a readable id is
// answered, reported on standard error, and ends the session.
func TestServe_StdioParseErrors(t *testing.T) {
	dir := fixtureRepo(t)
	cmd := exec.Command(wikidBin, "serve", "--repo", dir)
	cmd.Env = serveEnv()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("wikid standard error:\n%s", stderr)
		}
	})
	answers := make(chan map[string]any, 10)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<16), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("wikid wrote %q: %v", sc.Bytes(), err)
			}
			answers <- m
		}
		close(answers)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := stdin.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		t.Helper()
		select {
		case a, ok := <-answers:
			if !ok {
				t.Fatal("wikid closed its output")
			}
			return a
		case <-time.After(30 * time.Second):
			t.Fatal("no answer within 30 s")
		}
		return nil
	}
	code := func(a map[string]any) any {
		e, _ := a["error"].(map[string]any)
		return e["code"]
	}

	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_note","arguments":{"path":` + deep + `}}}`)
	if a := next(); a["id"] != 7.0 || code(a) != -32700.0 {
		t.Errorf("100,000 levels deep, id first: %v", a)
	}
	send(`{"jsonrpc":"2.0","method":"ping","params":{"x":` + deep + `},"id":"deep-2"}`)
	if a := next(); a["id"] != "deep-2" || code(a) != -32700.0 {
		t.Errorf("100,000 levels deep, id last: %v", a)
	}
	send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	if a := next(); a["id"] != 8.0 || a["error"] != nil {
		t.Errorf("ping after the parse errors: %v", a)
	}
	send(`this is not JSON`)
	if a := next(); a["id"] != nil || code(a) != -32700.0 {
		t.Errorf("a line without an id: %v", a)
	}
	select {
	case err := <-exited:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Errorf("exit %v, want a failure", err)
		}
		exited <- err // for the cleanup
	case <-time.After(30 * time.Second):
		t.Fatal("wikid did not end the session after a line without an id")
	}
	if !strings.Contains(stderr.String(), "line 4 of standard input is not a JSON-RPC message") {
		t.Errorf("standard error does not say why the session ended:\n%s", stderr)
	}
}
