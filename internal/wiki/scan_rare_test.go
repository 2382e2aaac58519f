package wiki_test

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// slowReads is a store whose snapshots take at least delay to read a
// file for a context marked with slowKey, as on a busy machine, and count
// those reads.
type slowReads struct {
	wiki.Store
	delay time.Duration
	reads *atomic.Int64
}

type slowKey struct{}

func (s slowReads) Snapshot(ctx context.Context, commit string) (wiki.Snapshot, error) {
	sn, err := s.Store.Snapshot(ctx, commit)
	if err != nil {
		return nil, err
	}
	return slowSnapshot{sn, s}, nil
}

type slowSnapshot struct {
	wiki.Snapshot
	s slowReads
}

func (sn slowSnapshot) Read(ctx context.Context, file string) (wiki.File, []byte, error) {
	if ctx.Value(slowKey{}) != nil {
		sn.s.reads.Add(1)
		time.Sleep(sn.s.delay)
	}
	return sn.Snapshot.Read(ctx, file)
}

// TestWiki_Search_ScanFindsTheRareNote checks that a search while the
// index is built finds the one note that holds a word, even when reading
// every note takes longer than a scan's first second (1,500 notes that
// take 4 ms each to read, three at a time: 2 s at least), rather than
// answering that no note matches; that a word no note holds gets a
// complete empty answer only after every note was read; that the next
// search reads none of the notes again; and that the search reports its
// progress all the while.
func TestWiki_Search_ScanFindsTheRareNote(t *testing.T) {
	dir := t.TempDir()
	gittest.Generate(t, dir, 1500, 15)
	gittest.Commit(t, dir, "the rare note", map[string]string{
		"zz/rare.md": "# Rare\n\nThe only note about a zanzibar.\n",
	})
	release := make(chan struct{})
	defer close(release)
	var reads atomic.Int64
	w := openWikiDeps(t, dir, func(o *wiki.Options) { o.Serving = true }, io.Discard, func(d *wiki.Deps) {
		d.Index = heldIndex{d.Index, release}
		d.Store = slowReads{d.Store, 4 * time.Millisecond, &reads}
	})
	for !w.IndexState().Building {
		time.Sleep(time.Millisecond)
	}
	var mu sync.Mutex
	var reports []wiki.Progress
	ctx := wiki.WithProgress(context.WithValue(context.Background(), slowKey{}, true), func(p wiki.Progress) {
		mu.Lock()
		reports = append(reports, p)
		mu.Unlock()
	})

	start := time.Now()
	res, err := w.Search(ctx, wiki.SearchParams{Query: "zanzibar"})
	took := time.Since(start)
	t.Logf("zanzibar took %v", took)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 1 || res.Results[0].Path != "zz/rare" || res.Total != 1 {
		t.Fatalf("zanzibar while the index is built: %d hits %v, scan %+v; want zz/rare", res.Total, hitPaths(res), res.Scan)
	}
	if res.Scan == nil || !res.Scan.Complete || res.Scan.Read != res.Scan.Notes || res.Scan.Notes != 1501 {
		t.Errorf("zanzibar: scan %+v, want every one of 1501 notes read, complete", res.Scan)
	}
	mu.Lock()
	n := len(reports)
	last := wiki.Progress{}
	if n > 0 {
		last = reports[n-1]
	}
	mu.Unlock()
	// Twice a second by design; once a second at least, whatever the
	// machine's load.
	if want := int(took / time.Second); n < want || n == 0 {
		t.Errorf("%d progress reports in %v, want at least %d", n, took, max(want, 1))
	}
	if last.Total != 1501 || last.Done == 0 {
		t.Errorf("last progress report %+v, want notes read of 1501", last)
	}

	// The notes read are kept: the next search reads none of them again.
	before := reads.Load()
	res, err = w.Search(ctx, wiki.SearchParams{Query: "quetzal"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 0 || res.Scan == nil || !res.Scan.Complete || res.Scan.Read != res.Scan.Notes {
		t.Errorf("quetzal: %v, scan %+v; want no hits, from a complete scan", hitPaths(res), res.Scan)
	}
	if again := reads.Load() - before; again != 0 {
		t.Errorf("the second search read %d notes again, want 0", again)
	}

	// A word many notes hold answers with a page as soon as it has one,
	// not complete.
	res, err = w.Search(ctx, wiki.SearchParams{Query: "budget", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Results) != 5 || res.Scan == nil || res.Scan.Complete {
		t.Errorf("budget: %d hits, scan %+v; want a page of 5, not complete", len(res.Results), res.Scan)
	}
}
