package gitsync_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/wiki"
)

// BenchmarkSyncer_Round times a round with nothing to do, against a bare
// repository on the same disk.
func BenchmarkSyncer_Round(b *testing.B) {
	seed := gittest.Init(b)
	gittest.Commit(b, seed, "seed", map[string]string{"plan.md": "# Plan\n"})
	bare := gittest.InitBare(b)
	gittest.Git(b, seed, "push", "-q", bare, "HEAD:refs/heads/main")
	m := benchMachine(b, bare, nil)
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.s.Round(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyncer_Integrate100 times one round that brings 100 commits
// made elsewhere (each editing two notes) into a wiki of 10,000 notes and
// 2,000 commits whose search index, history index and link graph are
// built, with the indexes following; next to git pull --ff-only of the
// same commits into a plain clone. Run it with -benchtime 1x.
func BenchmarkSyncer_Integrate100(b *testing.B) {
	ctx := context.Background()
	gen := filepath.Join(b.TempDir(), "gen")
	gittest.Generate(b, gen, 10000, 2000)
	bare := filepath.Join(b.TempDir(), "remote.git")
	gittest.Git(b, filepath.Dir(bare), "clone", "-q", "--bare", gen, bare)
	var log bytes.Buffer
	m := benchMachine(b, bare, &log)
	if err := m.w.Reindex(ctx, false, nil); err != nil {
		b.Fatal(err)
	}
	if err := m.w.CatchUp(ctx); err != nil {
		b.Fatal(err)
	}
	plain := filepath.Join(b.TempDir(), "plain")
	gittest.Git(b, filepath.Dir(plain), "clone", "-q", "-b", "main", bare, plain)

	// 100 commits elsewhere.
	other := filepath.Join(b.TempDir(), "other")
	gittest.Git(b, filepath.Dir(other), "clone", "-q", "-b", "main", bare, other)
	files := strings.Fields(gittest.Git(b, other, "ls-files", "*.md"))
	for i := range 100 {
		changes := map[string]string{}
		for _, f := range []string{files[(i*37)%len(files)], files[(i*101+7)%len(files)]} {
			changes[f] = gittest.Git(b, other, "show", "HEAD:"+f) + fmt.Sprintf("\nEdited elsewhere, %d.\n", i)
		}
		gittest.Commit(b, other, fmt.Sprintf("elsewhere %d", i), changes)
	}
	gittest.Git(b, other, "push", "-q", "origin", "HEAD:main")

	var round, pull time.Duration
	for range b.N { // the second iteration has nothing to integrate: -benchtime 1x
		start := time.Now()
		res, err := m.s.Round(ctx)
		if err != nil {
			b.Fatal(err)
		}
		round = time.Since(start)
		if res.Integrated != wiki.IntegratedFastForward {
			b.Fatalf("%+v", res)
		}
		start = time.Now()
		gittest.Git(b, plain, "pull", "-q", "--ff-only")
		pull = time.Since(start)
	}
	if strings.Contains(log.String(), "rebuilding") {
		b.Errorf("an index was rebuilt:\n%s", log.String())
	}
	b.ReportMetric(float64(round.Milliseconds()), "round-ms")
	b.ReportMetric(float64(pull.Milliseconds()), "git-pull-ms")
}

// benchMachine clones url and opens a wiki with every index over the clone.
func benchMachine(b *testing.B, url string, log *bytes.Buffer) *machine {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "clone")
	gittest.Git(b, filepath.Dir(dir), "clone", "-q", "-b", "main", url, dir)
	ctx := context.Background()
	if log == nil {
		log = &bytes.Buffer{}
	}
	logger := slog.New(slog.NewTextHandler(log, nil))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	w, err := wiki.Open(ctx, wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}, wiki.Options{
		Author: wiki.Identity{Name: "Ada", Email: "ada@example.com"}, Logger: logger,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close(ctx) })
	return &machine{dir: dir, w: w, s: gitsync.New(w, gitsync.Options{Dir: dir})}
}
