package gitstore

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// benchNotes and benchCommits size the repository of the commit benchmarks:
// the wiki of the performance budget.
const benchNotes, benchCommits = 10000, 2000

// benchRepo returns a checkout of the generated wiki and the paths of a few
// of its notes to edit.
func benchRepo(b *testing.B) (string, []string) {
	b.Helper()
	dir := b.TempDir()
	gittest.Generate(b, dir, benchNotes, benchCommits)
	files := strings.Fields(gittest.Git(b, dir, "ls-files"))
	var picks []string
	for i := 0; i < len(files); i += len(files) / 20 {
		picks = append(picks, files[i])
	}
	return dir, picks
}

// reportMedian adds the median duration of the timed operations.
func reportMedian(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
}

// BenchmarkCommit edits one note of a 10,000-note wiki per iteration through
// Store.Commit: objects, ref, worktree file and index, as a wiki write does.
// As in a wiki write, the note was read from the HEAD snapshot before (so
// the trees on its path are cached); the read is not timed.
func BenchmarkCommit(b *testing.B) {
	ctx := context.Background()
	dir, picks := benchRepo(b)
	s := openStore(b, dir)
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, head.Commit)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range picks {
		if _, _, err := snap.Read(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
	parent := head.Commit
	var times []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := picks[i%len(picks)]
		req := request(parent, "edit: "+p, map[string]string{p: fmt.Sprintf("# Edited\n\nedit %d\n", i)})
		start := time.Now()
		id, err := s.Commit(ctx, req)
		times = append(times, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		parent = id
	}
	b.StopTimer()
	reportMedian(b, times)
	if st := gittest.Status(b, dir); st != "" {
		b.Fatalf("status after the benchmark:\n%s", st)
	}
}

// BenchmarkGitCLICommit makes the same edit with the git CLI:
// `git add <file> && git commit -q -m <message>`.
func BenchmarkGitCLICommit(b *testing.B) {
	dir, picks := benchRepo(b)
	var times []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := picks[i%len(picks)]
		start := time.Now()
		if err := os.WriteFile(filepath.Join(dir, p), []byte(fmt.Sprintf("# Edited\n\nedit %d\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		for _, args := range [][]string{{"add", p}, {"commit", "-q", "-m", "edit: " + p}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			cmd.Env = gittest.Env()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git %s: %v\n%s", args[0], err, out)
			}
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	reportMedian(b, times)
}
