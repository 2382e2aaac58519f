package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/tool"
)

// BenchmarkDaemon measures what the daemon costs and saves, next to
// wikid serving in its own process, in one run on a generated wiki of
// 10,000 notes and 2,000 commits whose indexes exist: the time from
// spawning `wikid serve` to the reply to tools/list, and tool calls, through
// the official TypeScript SDK client (see BenchmarkE2E for the metrics),
// and the start again with a minimal JSON-RPC client in Go (_raw), which
// leaves out the time the SDK takes to set up and to compile the output
// schemas of tools/list, next to `git --version` and `wikid version`, the
// floor of a process start. A call's overhead through the bridge is the
// difference of the medians.
//
//	go test -run '^$' -bench 'Daemon$' -benchtime 100x ./internal/e2e
func BenchmarkDaemon(b *testing.B) {
	requireNode(b)
	dir, files := indexedBenchRepo(b)
	notePath := strings.TrimSuffix(files[len(files)/2], ".md")
	bridge := startBridge(b)
	shared := sharedEnv(b, dir)
	// The floor of a process start on this machine, next to which the
	// bridge's start reads: git's, and wikid's own without a wiki.
	for _, base := range []struct{ name, bin, arg string }{{"git_version", "git", "--version"}, {"wikid_version", wikidBin, "version"}} {
		b.Run(base.name, func(b *testing.B) {
			ms := make([]float64, 0, b.N)
			for range b.N {
				start := time.Now()
				if out, err := exec.Command(base.bin, base.arg).CombinedOutput(); err != nil {
					b.Fatalf("%s %s: %v\n%s", base.bin, base.arg, err, out)
				}
				ms = append(ms, float64(time.Since(start).Microseconds())/1000)
			}
			raw, _ := json.Marshal(map[string]any{"ms": ms})
			reportLatencies(b, raw)
		})
	}
	modes := []struct {
		name string
		env  []string
	}{{"in_process", serveEnv()}, {"daemon", shared}}
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			connect := func() *tsClient {
				req := stdioRequest(wikidBin, "--repo", dir)
				req["env"] = envMap(m.env)
				c := connectTS(b, bridge, req)
				c.listTools(b)
				waitIndexedTS(b, c)
				return c
			}
			var c *tsClient
			if m.name == "daemon" {
				c = connect() // starts the daemon, which stays up while c is connected
			}
			// In process, no other wikid may hold the index meanwhile.
			b.Run("start_to_tools_list", func(b *testing.B) {
				req := stdioRequest(wikidBin, "--repo", dir)
				req["env"] = envMap(m.env)
				req["op"], req["n"] = "startup", b.N
				b.ResetTimer()
				raw, err := bridge.do(req)
				if err != nil {
					b.Fatal(err)
				}
				reportLatencies(b, raw)
			})
			b.Run("start_to_tools_list_raw", func(b *testing.B) {
				ms := make([]float64, 0, b.N)
				for range b.N {
					start := time.Now()
					p := startRPCEnv(b, dir, m.env)
					if _, err := p.call("tools/list", map[string]any{}); err != nil {
						b.Fatal(err)
					}
					ms = append(ms, float64(time.Since(start).Microseconds())/1000)
					p.in.Close()
					p.cmd.Wait()
				}
				raw, _ := json.Marshal(map[string]any{"ms": ms})
				reportLatencies(b, raw)
			})
			if c == nil {
				c = connect()
			}
			b.Run("read_note", func(b *testing.B) {
				benchTS(b, c, "read_note", map[string]any{"path": notePath})
			})
			b.Run("search_notes", func(b *testing.B) {
				benchTS(b, c, "search_notes", map[string]any{"query": "note tag:project", "limit": 10})
			})
			c.close(b)
		})
	}
}

// BenchmarkDaemonColdStart measures a daemon's first start on a fresh
// clone of a generated wiki (no index yet), as a user meets it: the time
// from spawning `wikid serve` to the first right search answer (while the
// index is built, one from a scan: hits that match, a total no larger
// than the index's), the wrong answers before it (there must be none),
// the time to answer a rare phrase, the time until the index answers and
// until every index is built, and the daemon's memory: its peak during
// the build and its resident memory 5 s after. Once built, the index
// checks the scan's answers: every note they found matches.
// WIKID_BENCH_NOTES sets the number of notes (default 10,000; the commits
// are a fifth of them); WIKID_BENCH_HEAP_PROFILE names a file for the
// daemon's heap profile once its indexes are built (see
// WIKID_HEAP_PROFILE).
//
//	go test -run '^$' -bench DaemonColdStart -benchtime 1x ./internal/e2e
func BenchmarkDaemonColdStart(b *testing.B) {
	notes := 10000
	if v, err := strconv.Atoi(os.Getenv("WIKID_BENCH_NOTES")); err == nil && v > 0 {
		notes = v
	}
	type page struct {
		Total   int `json:"total"`
		Results []struct {
			Path string `json:"path"`
		} `json:"results"`
		Scan *struct {
			Searched int `json:"searched"`
		} `json:"scan"`
	}
	search := func(p *rpcServe, query string, limit int) (page, bool) {
		var pg page
		isErr := rpcStructured(b, p, "search_notes", map[string]any{"query": query, "limit": limit}, &pg)
		return pg, isErr
	}
	const rare = `"note 1234"`
	var first, rareAt, indexed, built, wrong, peak, steady, scanned float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		gittest.Generate(b, dir, notes, max(notes/5, 1))
		env := sharedEnv(b, dir)
		if heap := os.Getenv("WIKID_BENCH_HEAP_PROFILE"); heap != "" {
			env = append(env, "WIKID_HEAP_PROFILE="+heap)
		}
		want := len(strings.Fields(gittest.Git(b, dir, "ls-files", "*.md")))
		b.StartTimer()
		start := time.Now()
		p := startRPCEnv(b, dir, env)
		for {
			pg, isErr := search(p, "note", 10)
			right := !isErr && len(pg.Results) > 0 && pg.Total <= want && (pg.Scan != nil || pg.Total == want)
			if right {
				if pg.Scan != nil {
					scanned += float64(pg.Scan.Searched)
				}
				break
			}
			wrong++
		}
		first += time.Since(start).Seconds()
		pg, isErr := search(p, rare, 100)
		rareAt += time.Since(start).Seconds()
		if isErr {
			wrong++
		}
		rareScan := pg
		// list_tags waits for the index without using the CPU; a
		// search would scan the notes, and a status polled at 100,000
		// notes looks at the checkout every few seconds.
		var tags struct{}
		if rpcStructured(b, p, "list_tags", map[string]any{}, &tags) {
			b.Fatal("list_tags failed")
		}
		indexed += time.Since(start).Seconds()
		if pg, isErr := search(p, "note", 10); isErr || pg.Scan != nil || pg.Total != want {
			wrong++
			b.Errorf("the index, built, answers %+v", pg)
		}
		for ; ; time.Sleep(500 * time.Millisecond) {
			var st struct {
				Index, History, Graph struct {
					CaughtUp bool `json:"caught_up"`
				}
			}
			if rpcStructured(b, p, "wiki_status", map[string]any{}, &st); st.Index.CaughtUp && st.History.CaughtUp && st.Graph.CaughtUp {
				break
			}
		}
		b.StopTimer()
		built += time.Since(start).Seconds()
		// Every note a scan found, the index finds.
		if rareScan.Scan != nil {
			full, _ := search(p, rare, 100)
			in := map[string]bool{}
			for _, r := range full.Results {
				in[r.Path] = true
			}
			for _, r := range rareScan.Results {
				if !in[r.Path] {
					wrong++
					b.Errorf("the scan found %s for %s; the index does not", r.Path, rare)
				}
			}
			if rareScan.Total > full.Total {
				wrong++
				b.Errorf("the scan counted %d notes for %s, the index %d", rareScan.Total, rare, full.Total)
			}
		}
		time.Sleep(5 * time.Second)
		st := daemonStatus(b, env, dir)
		peak += st["peak_rss"].(float64) / (1 << 20)
		steady += st["rss"].(float64) / (1 << 20)
		p.in.Close()
		p.cmd.Wait()
	}
	n := float64(b.N)
	b.ReportMetric(first/n, "s-first-right-search")
	b.ReportMetric(scanned/n, "notes-scanned-first")
	b.ReportMetric(rareAt/n, "s-rare-phrase")
	b.ReportMetric(wrong/n, "wrong-answers")
	b.ReportMetric(indexed/n, "s-index-answers")
	b.ReportMetric(built/n, "s-all-built")
	b.ReportMetric(peak/n, "MiB-peak")
	b.ReportMetric(steady/n, "MiB-steady")
}

// startRPCEnv is startRPC with the environment given.
func startRPCEnv(tb testing.TB, dir string, env []string) *rpcServe {
	tb.Helper()
	return startRPCWith(tb, wikidBin, dir, env)
}

// rpcStructured calls a tool and decodes its structured content into out;
// it reports whether the result is an error.
func rpcStructured(tb testing.TB, p *rpcServe, name string, args map[string]any, out any) bool {
	tb.Helper()
	raw, err := p.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		tb.Fatalf("%s: %v\n%s", name, err, p.stderr)
	}
	var res struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	if err := tool.DecodeWire(res.StructuredContent, out); err != nil {
		tb.Fatalf("%s: %v: %s", name, err, res.StructuredContent)
	}
	return res.IsError
}
