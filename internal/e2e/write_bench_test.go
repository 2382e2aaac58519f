package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// BenchmarkWrites measures write_note and edit_note as an MCP client sees
// them, through the official TypeScript SDK client over stdio and the
// repository's daemon, on clones of one generated wiki of 10,000 notes and
// 2,000 commits whose indexes exist, next to other wikid binaries in the
// same run: WIKID_BENCH_BASELINES lists them, comma-separated, each as
// name=path (or a bare path, named by its file). Every binary gets a clone
// of its own; the rounds (WIKID_BENCH_ROUNDS, default 3) alternate the
// binaries, b.N calls of each tool per binary and round. It prints a table
// of the median and the 99th percentile of every binary's calls, and
// reports this binary's as metrics.
//
//	WIKID_BENCH_BASELINES=turn2=/path/to/old/wikid \
//	  go test -run '^$' -bench 'Writes$' -benchtime 100x ./internal/e2e
func BenchmarkWrites(b *testing.B) {
	requireNode(b)
	type binary struct {
		name, path string
		dir        string
		c          *tsClient
		ms         map[string][]float64
	}
	bins := []*binary{{name: "this", path: wikidBin}}
	for _, s := range strings.Split(os.Getenv("WIKID_BENCH_BASELINES"), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		name, path, ok := strings.Cut(s, "=")
		if !ok {
			name, path = filepath.Base(s), s
		}
		bins = append(bins, &binary{name: name, path: path})
	}
	rounds := 3
	if v, err := strconv.Atoi(os.Getenv("WIKID_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	bridge := startBridge(b)
	var notePath string
	for _, bin := range bins {
		bin.dir = b.TempDir()
		gittest.Generate(b, bin.dir, 10000, 2000)
		reindex := exec.Command(bin.path, "reindex", "--repo", bin.dir)
		reindex.Env = serveEnv()
		if out, err := reindex.CombinedOutput(); err != nil {
			b.Fatalf("%s reindex: %v\n%s", bin.name, err, out)
		}
		if notePath == "" {
			files := strings.Fields(gittest.Git(b, bin.dir, "ls-files", "*.md"))
			notePath = strings.TrimSuffix(files[len(files)/2], ".md")
		}
		// A binary without a daemon serves in its own process.
		req := stdioRequest(bin.path, "--repo", bin.dir)
		req["env"] = envMap(sharedEnvFor(b, bin.path, bin.dir))
		bin.c = connectTS(b, bridge, req)
		bin.ms = map[string][]float64{}
		waitBuilt(b, bin.c)
		// A first call of each tool, untimed: it loads what a warm daemon
		// holds.
		bin.c.time(b, "write_note", map[string]any{"path": "bench/warm", "content": "# Warm\n"}, 1)
		bin.c.time(b, "edit_note", map[string]any{"path": notePath,
			"edits": []any{map[string]any{"op": "append", "content": "- warm"}}}, 1)
	}
	tools := []string{"write_note", "edit_note"}
	b.ResetTimer()
	for r := range rounds {
		for i := range bins {
			bin := bins[(i+r)%len(bins)]
			bin.ms["write_note"] = append(bin.ms["write_note"], bin.c.time(b, "write_note", map[string]any{
				"path": fmt.Sprintf("bench/r%d/note-{i}", r), "content": "# Note {i}\n\nWritten by the benchmark.\n"}, b.N)...)
			bin.ms["edit_note"] = append(bin.ms["edit_note"], bin.c.time(b, "edit_note", map[string]any{"path": notePath,
				"edits": []any{map[string]any{"op": "append", "content": fmt.Sprintf("- round %d line {i}", r)}}}, b.N)...)
		}
	}
	b.StopTimer()
	var table strings.Builder
	fmt.Fprintf(&table, "%d rounds of %d calls per tool and binary, 10,000 notes, ms\n", rounds, b.N)
	fmt.Fprintf(&table, "%-10s", "binary")
	for _, t := range tools {
		fmt.Fprintf(&table, " %11s %11s", t+" p50", "p99")
	}
	table.WriteString("\n")
	for _, bin := range bins {
		fmt.Fprintf(&table, "%-10s", bin.name)
		for _, t := range tools {
			ms := slices.Sorted(slices.Values(bin.ms[t]))
			fmt.Fprintf(&table, " %11.2f %11.2f", percentile(ms, 50), percentile(ms, 99))
			if bin.name == "this" {
				b.ReportMetric(percentile(ms, 50), t+"-ms-median")
				b.ReportMetric(percentile(ms, 99), t+"-ms-p99")
			}
		}
		table.WriteString("\n")
		bin.c.close(b)
	}
	b.Log("\n" + table.String())
	fmt.Fprint(os.Stderr, table.String())
}

// waitBuilt waits until wiki_status says that every derived store it
// names reflects HEAD, so that no first build runs while calls are timed.
func waitBuilt(tb testing.TB, c *tsClient) {
	tb.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for {
		var st map[string]any
		json.Unmarshal(c.call(tb, "wiki_status", map[string]any{}).StructuredContent, &st)
		built := true
		for _, store := range []string{"index", "history", "graph"} {
			if m, ok := st[store].(map[string]any); ok && m["caught_up"] != true {
				built = false
			}
		}
		if built {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the derived stores did not catch up: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// time calls a tool n times in Node, one call after another, and returns
// the call times in milliseconds. Every "{i}" in the arguments becomes the
// call's number.
func (c *tsClient) time(tb testing.TB, name string, args map[string]any, n int) []float64 {
	tb.Helper()
	raw, err := c.b.do(map[string]any{"op": "time", "client": c.id, "name": name, "arguments": args, "n": n})
	if err != nil {
		tb.Fatal(err)
	}
	var res struct {
		MS []float64 `json:"ms"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.MS) != n {
		tb.Fatalf("%d timings for %d calls: %v", len(res.MS), n, err)
	}
	return res.MS
}
