package wiki_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// benchNotes and benchCommits size the generated repository of the
// benchmarks: the performance budget's 10,000 notes and 2,000 commits.
const benchNotes, benchCommits = 10000, 2000

// benchRepo returns a fresh checkout of the generated repository and the
// file of one of its notes.
func benchRepo(b *testing.B) (dir, file string) {
	b.Helper()
	dir = b.TempDir()
	gittest.Generate(b, dir, benchNotes, benchCommits)
	files := strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
	return dir, files[len(files)/2]
}

// durations records the time of each operation and reports percentiles.
type durations []time.Duration

func (d *durations) time(f func()) {
	start := time.Now()
	f()
	*d = append(*d, time.Since(start))
}

func (d durations) report(b *testing.B) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkWiki_Edit appends a line to one note of a 10,000-note repository
// and commits it through the wiki: commit, worktree file and .git/index
// refreshed, and the derived stores (history index, search index, link
// graph) updated, as the daemon runs it.
func BenchmarkWiki_Edit(b *testing.B) {
	// One case, named like the cases of the wikis that could run without
	// some of the stores.
	b.Run("stores=all", func(b *testing.B) {
		ctx := context.Background()
		dir, file := benchRepo(b)
		store, err := gitstore.Open(ctx, dir, gitstore.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w, err := wiki.Open(ctx, deps(b, store, nil, nil), wiki.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Close(ctx)
		if err := w.CatchUp(ctx); err != nil {
			b.Fatal(err)
		}
		path, _, _ := note.SplitFileName(file)
		var d durations
		b.ResetTimer()
		for i := range b.N {
			d.time(func() {
				_, err = w.Edit(ctx, wiki.EditRequest{Path: path, Edits: []note.Edit{{Op: note.OpAppend, Content: fmt.Sprintf("line %d", i)}}})
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		d.report(b)
		if st := gittest.Status(b, dir); st != "" {
			b.Fatalf("status not clean:\n%s", st)
		}
	})
}

// BenchmarkGitCLI_Commit makes the change of BenchmarkWiki_Edit with the
// git CLI: append a line, `git add`, `git commit`.
func BenchmarkGitCLI_Commit(b *testing.B) {
	dir, file := benchRepo(b)
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var d durations
	b.ResetTimer()
	for i := range b.N {
		d.time(func() {
			fmt.Fprintf(f, "line %d\n", i)
			gittest.Git(b, dir, "add", file)
			gittest.Git(b, dir, "commit", "-q", "-m", "edit: "+file)
		})
	}
	b.StopTimer()
	d.report(b)
}
