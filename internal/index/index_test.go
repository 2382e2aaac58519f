package index

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// reopen closes x and opens its directory again, with a fresh log.
func reopen(tb testing.TB, x *Index) (*Index, *syncBuffer) {
	tb.Helper()
	if err := x.Close(context.Background()); err != nil {
		tb.Fatalf("Close: %v", err)
	}
	log := &syncBuffer{}
	y, err := Open(context.Background(), x.dir, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { _ = y.Close(context.Background()) })
	return y, log
}

// checkEmpty checks that x holds no notes and no commit, and still works.
func checkEmpty(tb testing.TB, x *Index) {
	tb.Helper()
	if c := x.Commit(); c != "" {
		tb.Errorf("Commit = %q, want empty", c)
	}
	if n, err := x.Len(context.Background()); err != nil || n != 0 {
		tb.Errorf("Len = %d, %v; want 0", n, err)
	}
	apply(tb, x, "c9", fixture(tb)[:2], nil)
	if got := sortedPaths(find(tb, x, wiki.SearchRequest{Query: parse(tb, "alpha")})); !slices.Equal(got, []string{"projects/alpha/plan", "projects/alpha/retro"}) {
		tb.Errorf("after a rebuild, alpha finds %q", got)
	}
}

func TestOpen(t *testing.T) {
	t.Run("new", func(t *testing.T) {
		x, log := openTest(t)
		checkEmpty(t, x)
		if log.String() != "" {
			t.Errorf("log = %q, want nothing", log)
		}
	})
	t.Run("reopen keeps the commit and the notes", func(t *testing.T) {
		x := openFixture(t)
		y, log := reopen(t, x)
		if c := y.Commit(); c != "c1" {
			t.Errorf("Commit = %q, want c1", c)
		}
		if n, err := y.Len(context.Background()); err != nil || n != len(fixture(t)) {
			t.Errorf("Len = %d, %v; want %d", n, err, len(fixture(t)))
		}
		if got := sortedPaths(find(t, y, wiki.SearchRequest{Query: parse(t, "tag:person")})); !slices.Equal(got, []string{"people/ann", "people/bob"}) {
			t.Errorf("tag:person = %q", got)
		}
		if log.String() != "" {
			t.Errorf("log = %q, want nothing", log)
		}
	})

	damage := []struct {
		name   string
		damage func(tb testing.TB, dir string)
	}{
		{"truncated segment", func(tb testing.TB, dir string) {
			segs, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
			if len(segs) == 0 {
				tb.Fatal("no segment file")
			}
			for _, s := range segs {
				if err := os.Truncate(s, 100); err != nil {
					tb.Fatal(err)
				}
			}
		}},
		{"garbled segment", func(tb testing.TB, dir string) {
			segs, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
			for _, s := range segs {
				b, err := os.ReadFile(s)
				if err != nil {
					tb.Fatal(err)
				}
				for i := len(b) / 4; i < len(b)*3/4; i++ {
					b[i] ^= 0x5a
				}
				if err := os.WriteFile(s, b, 0o644); err != nil {
					tb.Fatal(err)
				}
			}
		}},
		{"truncated root", func(tb testing.TB, dir string) {
			if err := os.Truncate(filepath.Join(dir, "store", "root.bolt"), 100); err != nil {
				tb.Fatal(err)
			}
		}},
		{"garbled metadata", func(tb testing.TB, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "index_meta.json"), []byte("{not json"), 0o644); err != nil {
				tb.Fatal(err)
			}
		}},
		{"no metadata", func(tb testing.TB, dir string) {
			if err := os.Remove(filepath.Join(dir, "index_meta.json")); err != nil {
				tb.Fatal(err)
			}
		}},
		{"a file instead of the index", func(tb testing.TB, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(dir, []byte("junk"), 0o644); err != nil {
				tb.Fatal(err)
			}
		}},
	}
	for _, tt := range damage {
		t.Run("recreates after "+tt.name, func(t *testing.T) {
			x := openFixture(t)
			dir := x.dir
			if err := x.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			tt.damage(t, dir)
			log := &syncBuffer{}
			y, err := Open(context.Background(), dir, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer y.Close(context.Background())
			if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "recreating") {
				t.Errorf("log = %q, want a warning", log)
			}
			checkEmpty(t, y)
		})
	}

	t.Run("recreates another schema version", func(t *testing.T) {
		x := openFixture(t)
		// Write the old version the way Apply writes, so that Close waits
		// for it to reach the disk (a direct SetInternal may not).
		b := x.bi.NewBatch()
		b.SetInternal(internalSchema, []byte("0"))
		saved := x.unsaved.add()
		b.SetPersistedCallback(func(error) { saved() })
		if err := x.bi.Batch(b); err != nil {
			t.Fatal(err)
		}
		y, log := reopen(t, x)
		if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), `schema version \"0\"`) {
			t.Errorf("log = %q, want a warning about the schema", log)
		}
		checkEmpty(t, y)
	})

	t.Run("recreates when the time zone changes", func(t *testing.T) {
		ny, err := time.LoadLocation("America/New_York")
		if err != nil {
			t.Skipf("no zone data: %v", err)
		}
		x := openFixture(t) // UTC
		if err := x.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		log := &syncBuffer{}
		y, err := Open(context.Background(), x.dir, Options{Logger: slog.New(slog.NewTextHandler(log, nil)), Location: ny})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer y.Close(context.Background())
		if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), `time zone \"UTC\", want \"America/New_York\"`) {
			t.Errorf("log = %q, want a warning about the time zone", log)
		}
		checkEmpty(t, y)
		if err := y.Reset(context.Background()); err != nil {
			t.Fatal(err)
		}
		apply(t, y, "c2", fixture(t), nil)
		if err := y.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		// Reset kept the zone: the index opens as it is in New York.
		z, err := Open(context.Background(), x.dir, Options{Location: ny})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		defer z.Close(context.Background())
		if c := z.Commit(); c != "c2" {
			t.Errorf("reopened in the same zone, Commit = %q, want c2", c)
		}
	})

	t.Run("in use by another process", func(t *testing.T) {
		x := openFixture(t)
		_, err := Open(context.Background(), x.dir, Options{})
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("second Open: %v, want ErrLocked", err)
		}
		// The index in use is left alone.
		if c := x.Commit(); c != "c1" {
			t.Errorf("Commit = %q, want c1", c)
		}
		y, _ := reopen(t, x)
		if c := y.Commit(); c != "c1" {
			t.Errorf("after reopening, Commit = %q, want c1", c)
		}
	})
}

func TestIndex_Apply(t *testing.T) {
	x := openFixture(t)
	changed := fixture(t)[3] // people/ann
	changed.Tags = []string{"manager"}
	changed.Body = "Ann manages Alpha."
	apply(t, x, "c2", []wiki.Document{changed}, []string{"people/bob", "no/such/note"})
	if c := x.Commit(); c != "c2" {
		t.Errorf("Commit = %q, want c2", c)
	}
	if n, _ := x.Len(context.Background()); n != len(fixture(t))-1 {
		t.Errorf("Len = %d, want %d", n, len(fixture(t))-1)
	}
	for q, want := range map[string][]string{
		"tag:person":  {},
		"tag:manager": {"people/ann"},
		"leads":       {},
		"manages":     {"people/ann"},
		"bob":         {},
	} {
		if got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, q)})); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := x.apply(ctx, "c3", nil, []string{"people/ann"}); !errors.Is(err, context.Canceled) {
			t.Errorf("Apply = %v, want context.Canceled", err)
		}
		if c := x.Commit(); c != "c2" {
			t.Errorf("Commit = %q, want c2", c)
		}
		if n, _ := x.Len(context.Background()); n != len(fixture(t))-1 {
			t.Errorf("Len = %d, want %d", n, len(fixture(t))-1)
		}
	})
}

func TestIndex_Reset(t *testing.T) {
	x := openFixture(t)
	if err := x.Reset(context.Background()); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	checkEmpty(t, x)
	y, _ := reopen(t, x)
	if c := y.Commit(); c != "c9" {
		t.Errorf("after reopening, Commit = %q, want c9", c)
	}
}

func TestIndex_Close(t *testing.T) {
	x := openFixture(t)
	ctx := context.Background()
	if err := x.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := x.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := x.Search(ctx, wiki.SearchRequest{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Search = %v, want ErrClosed", err)
	}
	if err := x.apply(ctx, "c2", nil, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Apply = %v, want ErrClosed", err)
	}
	if _, err := x.Tags(ctx, wiki.TagsRequest{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Tags = %v, want ErrClosed", err)
	}
	if _, err := x.Len(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Len = %v, want ErrClosed", err)
	}
	if err := x.Reset(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Reset = %v, want ErrClosed", err)
	}
}

// TestIndex_Apply_concurrentSearch searches while batches are applied: a
// search sees every batch whole or not at all.
func TestIndex_Apply_concurrentSearch(t *testing.T) {
	x, _ := openTest(t)
	const batches, perBatch = 20, 10
	done := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := parse(t, "tag:batch")
			for {
				select {
				case <-done:
					return
				default:
				}
				res, err := x.Search(context.Background(), wiki.SearchRequest{Query: q, Limit: 1})
				if err != nil {
					errs <- err.Error()
					return
				}
				if res.Total%perBatch != 0 {
					errs <- "saw part of a batch"
					return
				}
				if _, err := x.Tags(context.Background(), wiki.TagsRequest{}); err != nil {
					errs <- err.Error()
					return
				}
			}
		}()
	}
	for b := range batches {
		var docs []wiki.Document
		for i := range perBatch {
			docs = append(docs, wiki.Document{Path: "b/" + string(rune('a'+b)) + string(rune('a'+i)), Tags: []string{"batch"}, Body: "text"})
		}
		apply(t, x, "c", docs, nil)
	}
	close(done)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n, _ := x.Len(context.Background()); n != batches*perBatch {
		t.Errorf("Len = %d, want %d", n, batches*perBatch)
	}
}

// TestBatchSize: a first build of a large wiki indexes smaller batches,
// whose analysis bleve holds in memory, two at once.
func TestBatchSize(t *testing.T) {
	for n, want := range map[int]int{1: indexBatch, largeUpdate - 1: indexBatch, largeUpdate: largeBatch, 100000: largeBatch} {
		if got := batchSize(n); got != want {
			t.Errorf("batchSize(%d) = %d, want %d", n, got, want)
		}
	}
}
