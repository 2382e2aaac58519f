package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// TestIndex_damagedSegments truncates the index's segment files under a
// running index: a search returns ErrDamaged instead of crashing the
// process on the memory fault, the index reports no commit (so that the
// wiki rebuilds it), and after a Reset and a new Apply it answers again.
func TestIndex_damagedSegments(t *testing.T) {
	x := openFixture(t)
	<-x.unsaved.saved()
	ctx := context.Background()
	req := wiki.SearchRequest{Query: parse(t, "search")}
	var segs []string
	deadline := time.Now().Add(5 * time.Second)
	for len(segs) == 0 && time.Now().Before(deadline) {
		segs, _ = filepath.Glob(filepath.Join(x.dir, "store", "*.zap"))
		time.Sleep(10 * time.Millisecond)
	}
	if len(segs) == 0 {
		t.Fatalf("no segment files in %s", x.dir)
	}
	time.Sleep(100 * time.Millisecond) // let scorch swap in the files for the in-memory segments
	for _, s := range segs {
		if err := os.Truncate(s, 0); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	for time.Now().Before(deadline) {
		if _, err = x.Search(ctx, req); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "rebuilt") {
		t.Fatalf("search over truncated segments: %v, want ErrDamaged", err)
	}
	if c := x.Commit(); c != "" {
		t.Errorf("a damaged index still reports commit %q", c)
	}
	if err := x.Reset(ctx); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	apply(t, x, "c2", fixture(t), nil)
	if res := find(t, x, req); len(res.Results) == 0 {
		t.Errorf("no hits after the rebuild")
	}
}
