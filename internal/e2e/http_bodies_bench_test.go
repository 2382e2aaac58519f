package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// BenchmarkHTTP_ConcurrentLargeBodies sends n tools/call requests of
// 15 MiB each at once to the daemon over HTTP (as `wikid serve --http`
// runs it, with its soft memory limit), for n = 8, 16, 32 and 64, and
// reports the daemon's peak resident memory. Each n starts a daemon of
// its own, since the peak is the process's.
//
//	go test -run '^$' -bench HTTP_ConcurrentLargeBodies -benchtime 1x ./internal/e2e
func BenchmarkHTTP_ConcurrentLargeBodies(b *testing.B) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "write_note", "arguments": map[string]any{"path": "big", "content": strings.Repeat("x", 15<<20-200)}}})
	for _, n := range []int{8, 16, 32, 64} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var peak, answered float64
			for range b.N {
				b.StopTimer()
				dir := b.TempDir()
				gittest.Generate(b, dir, 20, 5)
				env := sharedEnv(b, dir)
				const token = "bodies"
				p := startBinary(b, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
				if p.url == "" {
					b.Fatalf("wikid serve --http exited:\n%s", p.stderr)
				}
				session := initializeHTTP(b, p.url, token)
				b.StartTimer()
				var wg sync.WaitGroup
				var mu sync.Mutex
				for range n {
					wg.Go(func() {
						code, err := postHTTP(p.url, token, session, body)
						mu.Lock()
						defer mu.Unlock()
						if err != nil {
							b.Error(err)
							return
						}
						if code == http.StatusOK {
							answered++
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				peak += float64(peakRSS(b, p.cmd.Process.Pid)) / (1 << 20)
			}
			b.ReportMetric(peak/float64(b.N), "MiB-peak")
			b.ReportMetric(answered/float64(b.N), "answered")
		})
	}
}

// initializeHTTP opens a session at url and returns its id.
func initializeHTTP(tb testing.TB, url, token string) string {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		tb.Fatalf("initialize: %s, session %q", resp.Status, id)
	}
	return id
}

// postHTTP posts body in session and returns the status, once the answer
// is read.
func postHTTP(url, token, session string, body []byte) (int, error) {
	code, _, err := postHTTPBody(url, token, session, body, false)
	return code, err
}

// postHTTPBody posts body in session, chunked (without a Content-Length)
// or not, and returns the status and the answer.
func postHTTPBody(url, token, session string, body []byte, chunked bool) (int, string, error) {
	var in io.Reader = bytes.NewReader(body)
	if chunked {
		in = io.MultiReader(in) // of unknown length
	}
	req, _ := http.NewRequest(http.MethodPost, url, in)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(answer), err
}
