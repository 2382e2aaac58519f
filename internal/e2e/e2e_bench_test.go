package e2e_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// BenchmarkE2E measures wikid as an MCP client sees it, through the
// official TypeScript SDK client, on a generated wiki of 10,000 notes and
// 2,000 commits whose search index exists: tool calls over HTTP and over
// stdio, and the time from spawning `wikid serve` to the reply to the first
// tools/list (initialize included). Each reports the median and the 99th
// percentile of the calls of its last run, timed inside Node around the
// SDK's callTool, next to ns/op, which adds the Go-to-Node hop.
//
//	go test -run '^$' -bench E2E -benchtime 200x ./internal/e2e
func BenchmarkE2E(b *testing.B) {
	requireNode(b)
	dir, files := indexedBenchRepo(b)
	notePath := strings.TrimSuffix(files[len(files)/2], ".md")
	bridge := startBridge(b)

	round := 0 // keeps the notes each run writes apart from earlier runs'
	calls := func(b *testing.B, c *tsClient) {
		b.Run("search_notes", func(b *testing.B) {
			benchTS(b, c, "search_notes", map[string]any{"query": "note tag:project", "limit": 10})
		})
		b.Run("read_note", func(b *testing.B) {
			benchTS(b, c, "read_note", map[string]any{"path": notePath})
		})
		b.Run("write_note", func(b *testing.B) {
			round++
			benchTS(b, c, "write_note", map[string]any{
				"path": fmt.Sprintf("bench/r%d/note-{i}", round), "content": "# Note {i}\n\nWritten by the benchmark.\n"})
		})
		b.Run("edit_note", func(b *testing.B) {
			benchTS(b, c, "edit_note", map[string]any{"path": notePath,
				"edits": []any{map[string]any{"op": "append", "content": "- line {i}"}}})
		})
	}
	b.Run("http", func(b *testing.B) {
		const token = "bench"
		p := startBinary(b, wikidBin, serveEnv(), "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
		if p.url == "" {
			<-p.exited
			b.Fatalf("wikid serve exited: %v\n%s", p.cmd.ProcessState, p.stderr)
		}
		c := connectTS(b, bridge, httpRequest(p.url, token))
		c.listTools(b)
		waitIndexedTS(b, c)
		calls(b, c)
		c.close(b)
	})
	b.Run("stdio", func(b *testing.B) {
		c := connectTS(b, bridge, stdioRequest(wikidBin, "--repo", dir))
		c.listTools(b)
		waitIndexedTS(b, c)
		calls(b, c)
		c.close(b) // wikid exits; the next spawn opens the index
	})
	b.Run("start_to_tools_list", func(b *testing.B) {
		req := stdioRequest(wikidBin, "--repo", dir)
		req["op"], req["n"] = "startup", b.N
		b.ResetTimer()
		raw, err := bridge.do(req)
		if err != nil {
			b.Fatal(err)
		}
		reportLatencies(b, raw)
	})
}

// benchTS calls a tool b.N times in Node, one call after another, and
// reports the median and 99th percentile of the call times. Every "{i}" in
// the arguments becomes the call's number.
func benchTS(b *testing.B, c *tsClient, name string, args map[string]any) {
	b.Helper()
	b.ResetTimer()
	raw, err := c.b.do(map[string]any{"op": "time", "client": c.id, "name": name, "arguments": args, "n": b.N})
	if err != nil {
		b.Fatal(err)
	}
	reportLatencies(b, raw)
}

// reportLatencies reports the median and the 99th percentile of the
// {"ms": [...]} that Node measured.
func reportLatencies(b *testing.B, raw json.RawMessage) {
	b.Helper()
	b.StopTimer()
	var res struct {
		MS []float64 `json:"ms"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.MS) != b.N {
		b.Fatalf("%d timings for %d calls: %v", len(res.MS), b.N, err)
	}
	slices.Sort(res.MS)
	b.ReportMetric(percentile(res.MS, 50), "ms-median")
	b.ReportMetric(percentile(res.MS, 99), "ms-p99")
}

// percentile returns the p-th percentile of sorted values, by the nearest
// rank.
func percentile(sorted []float64, p int) float64 {
	i := (len(sorted)*p + 99) / 100 // ceil(n·p/100), the nearest rank
	return sorted[max(i, 1)-1]
}

// close closes the client; for stdio, wikid exits.
func (c *tsClient) close(tb testing.TB) {
	tb.Helper()
	c.b.doInto(tb, map[string]any{"op": "close", "client": c.id}, nil)
}
