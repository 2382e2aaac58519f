package graph

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// benchNotes and benchCommits size the generated repository of the
// benchmarks: the performance budget's 10,000 notes and 2,000 commits.
const benchNotes, benchCommits = 10000, 2000

var (
	benchOnce  sync.Once
	benchCache []File
	// benchStore reads the generated repository's blobs, as a daemon's
	// graph reads the lines links sit on.
	benchStore *gitstore.Store
	benchDir   string
)

// TestMain removes the benchmarks' repository.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchStore != nil {
		benchStore.Close(context.Background())
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchFiles returns the parsed files of the generated repository.
func benchFiles(b *testing.B) []File {
	b.Helper()
	benchOnce.Do(func() {
		// Not b.TempDir: the repository outlives the first benchmark
		// (see TestMain).
		dir, err := os.MkdirTemp("", "wikid-graph-bench")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		gittest.Generate(b, dir, benchNotes, benchCommits)
		benchCache = readDir(b, dir)
		if benchStore, err = gitstore.Open(context.Background(), dir, gitstore.Options{}); err != nil {
			b.Fatal(err)
		}
	})
	if len(benchCache) < benchNotes {
		b.Fatalf("generated %d files", len(benchCache))
	}
	return benchCache
}

// withHub adds a note "hub/target" and 500 notes that link to it in the
// forms a move rewrites; their blobs are written to the generated
// repository.
func withHub(b *testing.B, files []File) []File {
	out := append([]File(nil), files...)
	tmp := b.TempDir()
	var written []string
	add := func(f, content string) {
		out = append(out, fileOf(f, []byte(content)))
		p := filepath.Join(tmp, strings.ReplaceAll(f, "/", "_"))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
		written = append(written, p)
	}
	add("hub/target.md", "# The hub\n\nLinked from everywhere.\n")
	forms := []string{"[[target]]", "[[hub/target|the hub]]", "[hub](../hub/target.md)", "[[target#The hub]]"}
	for i := range 500 {
		add(fmt.Sprintf("linkers/l-%03d.md", i), fmt.Sprintf("# Linker %d\n\nSee %s.\n", i, forms[i%len(forms)]))
	}
	cmd := exec.Command("git", "-C", benchDir, "hash-object", "-w", "--stdin-paths")
	cmd.Stdin = strings.NewReader(strings.Join(written, "\n") + "\n")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git hash-object: %v\n%s", err, msg)
	}
	return out
}

// BenchmarkGraph_Build builds the graph of 10,000 parsed notes and reports
// the heap it keeps.
func BenchmarkGraph_Build(b *testing.B) {
	files := benchFiles(b)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var g *Graph
	for b.Loop() {
		g = New()
		g.ApplyFiles("c", files, nil)
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
	b.ReportMetric(float64(g.Len()), "notes")
	runtime.KeepAlive(g)
}

// BenchmarkGraph_ParseAndBuild parses 10,000 notes and builds their graph,
// as a wiki does from a commit's blobs.
func BenchmarkGraph_ParseAndBuild(b *testing.B) {
	files := benchFiles(b)
	for b.Loop() {
		fresh := make([]File, len(files))
		for i, f := range files {
			fresh[i] = f
			if f.Note != nil {
				fresh[i].Note = note.Parse(f.Note.Path, f.Note.Raw)
			}
		}
		New().ApplyFiles("c", fresh, nil)
	}
}

// BenchmarkGraph_Backlinks lists the backlinks of the most linked note of
// the generated wiki, and of a note with 500 backlinks, with the lines the
// links sit on (of all, and of the first wiki.ReadBacklinks notes): the
// generated notes' read from the repository with the store's reader, the
// hub's linkers from memory.
func BenchmarkGraph_Backlinks(b *testing.B) {
	g := New()
	files := withHub(b, benchFiles(b))
	g.ReadBlobsWith(benchStore.ReadBlob)
	g.ApplyFiles("c", files, nil)
	top := g.Hubs(wiki.HubInDegree, "", 2)
	for _, h := range top {
		b.Run(fmt.Sprintf("in-degree=%d", h.InDegree), func(b *testing.B) {
			for b.Loop() {
				bs := g.Backlinks(h.Path)
				if len(bs) != h.InDegree {
					b.Fatalf("%d backlinks, want %d", len(bs), h.InDegree)
				}
				if bs[0].Links[0].Context == "" {
					b.Fatalf("a backlink without its line: %+v", bs[0])
				}
			}
		})
		// What a metadata-only read lines.
		b.Run(fmt.Sprintf("in-degree=%d/lined=%d", h.InDegree, wiki.ReadBacklinks), func(b *testing.B) {
			for b.Loop() {
				bs := g.BacklinksLined(h.Path, wiki.ReadBacklinks)
				if len(bs) != h.InDegree || bs[0].Links[0].Context == "" {
					b.Fatalf("%d backlinks, the first %+v", len(bs), bs[0])
				}
			}
		})
	}
}

// BenchmarkGraph_PageRank computes PageRank over the whole graph.
func BenchmarkGraph_PageRank(b *testing.B) {
	g := New()
	g.ApplyFiles("c", benchFiles(b), nil)
	var rounds int
	for b.Loop() {
		g.rank.scores = nil
		_, rounds = g.pageRank()
	}
	b.ReportMetric(float64(rounds), "rounds")
}

// BenchmarkGraph_Relinks plans the move of a note with 500 backlinks.
func BenchmarkGraph_Relinks(b *testing.B) {
	g := New()
	g.ApplyFiles("c", withHub(b, benchFiles(b)), nil)
	for b.Loop() {
		if rel := g.Relinks(map[string]string{"hub/target": "archive/moved"}); len(rel) != 500 {
			b.Fatalf("%d notes to relink, want 500", len(rel))
		}
	}
}

// BenchmarkGraph_ApplyFiles patches the graph with one changed note.
func BenchmarkGraph_ApplyFiles(b *testing.B) {
	files := withHub(b, benchFiles(b))
	g := New()
	g.ApplyFiles("c", files, nil)
	edits := []File{
		fileOf("hub/target.md", []byte("# The hub\n\nEdited.\n")),
		fileOf("hub/target.md", []byte("# The hub\n\nLinked from everywhere.\n")),
	}
	i := 0
	for b.Loop() {
		g.ApplyFiles("c", edits[i%2:i%2+1], nil)
		i++
	}
}
