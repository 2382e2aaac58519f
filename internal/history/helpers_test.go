package history_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/wiki"
)

// openIndex opens the store and the history index of the repository at dir
// and closes both when the test ends.
func openIndex(tb testing.TB, dir string) (*history.Index, *gitstore.Store) {
	tb.Helper()
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatalf("gitstore.Open: %v", err)
	}
	x, err := history.Open(ctx, store, history.Options{})
	if err != nil {
		tb.Fatalf("history.Open: %v", err)
	}
	tb.Cleanup(func() {
		x.Close(ctx)
		store.Close(ctx)
	})
	return x, store
}

// syncHead syncs the index to the repository's HEAD and returns it.
func syncHead(tb testing.TB, x *history.Index, dir string) string {
	tb.Helper()
	head := revParse(tb, dir, "HEAD")
	if err := x.Sync(context.Background(), head); err != nil {
		tb.Fatalf("Sync(%s): %v", head, err)
	}
	return head
}

func revParse(tb testing.TB, dir, rev string) string {
	tb.Helper()
	return strings.TrimSpace(gittest.Git(tb, dir, "rev-parse", rev))
}

// gitLines runs git and returns its output's non-empty lines.
func gitLines(tb testing.TB, dir string, args ...string) []string {
	tb.Helper()
	var out []string
	for _, l := range strings.Split(gittest.Git(tb, dir, args...), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// gitAt runs git with the author and committer dates set to when.
func gitAt(tb testing.TB, dir string, when time.Time, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := fmt.Sprintf("%d +0000", when.Unix())
	cmd.Env = append(gittest.Env(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// commits returns the ids of revisions.
func ids(revs []wiki.Revision) []string {
	out := make([]string, len(revs))
	for i, r := range revs {
		out[i] = r.ID
	}
	return out
}

// sameList reports the first difference between two lists, or "".
func sameList(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("entry %d: got %s, want %s (got %d entries, want %d)", i, g, w, len(got), len(want))
		}
	}
	return ""
}
