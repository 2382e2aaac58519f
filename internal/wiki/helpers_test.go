package wiki_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/wiki"
)

// openWiki opens a wiki over the repository at dir with a fixed clock.
func openWiki(tb testing.TB, dir string, edit func(*wiki.Options)) *wiki.Wiki {
	tb.Helper()
	return openWikiWith(tb, dir, edit, io.Discard, nil)
}

// openWikiLogged is openWiki with the logs written to log.
func openWikiLogged(tb testing.TB, dir string, edit func(*wiki.Options), log io.Writer) *wiki.Wiki {
	tb.Helper()
	return openWikiWith(tb, dir, edit, log, nil)
}

// openWikiWith is openWiki with the logs written to log and a link graph
// (nil for a new one).
func openWikiWith(tb testing.TB, dir string, edit func(*wiki.Options), log io.Writer, g wiki.Graph) *wiki.Wiki {
	tb.Helper()
	return openWikiDeps(tb, dir, edit, log, func(d *wiki.Deps) {
		if g != nil {
			d.Graph = g
		}
	})
}

// openWikiDeps is openWiki with the logs written to log and the adapters
// of deps changed by change (nil for none).
func openWikiDeps(tb testing.TB, dir string, edit func(*wiki.Options), log io.Writer, change func(*wiki.Deps)) *wiki.Wiki {
	tb.Helper()
	logger := slog.New(slog.NewTextHandler(log, nil))
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		tb.Fatalf("gitstore.Open: %v", err)
	}
	opts := wiki.Options{
		Author:    wiki.Identity{Name: "Ada Author", Email: "ada@example.com"},
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Now:       func() time.Time { return time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC) },
		Logger:    logger,
	}
	if edit != nil {
		edit(&opts)
	}
	d := deps(tb, store, logger, opts.Location)
	if change != nil {
		change(&d)
	}
	w, err := wiki.Open(ctx, d, opts)
	if err != nil {
		tb.Fatalf("wiki.Open: %v", err)
	}
	tb.Cleanup(func() { w.Close(ctx) })
	return w
}

// deps returns the adapters a wiki needs over store, as cmd/wikid wires
// them: a search index (its dates read in loc, nil for UTC) and a history
// index under store.Dir(), and a link graph. Closing the wiki closes them.
func deps(tb testing.TB, store *gitstore.Store, logger *slog.Logger, loc *time.Location) wiki.Deps {
	tb.Helper()
	return depsIn(tb, store, store.Dir(), logger, loc)
}

// depsIn is deps with the search index and the history index in dir.
func depsIn(tb testing.TB, store *gitstore.Store, dir string, logger *slog.Logger, loc *time.Location) wiki.Deps {
	tb.Helper()
	ctx := context.Background()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	idx, err := index.Open(ctx, filepath.Join(dir, "index"), index.Options{Logger: logger, Location: loc})
	if err != nil {
		tb.Fatalf("index.Open: %v", err)
	}
	var hs wiki.Store = store
	if dir != store.Dir() {
		hs = derivedIn{store, dir}
	}
	hist, err := history.Open(ctx, hs, history.Options{Logger: logger})
	if err != nil {
		idx.Close(ctx)
		tb.Fatalf("history.Open: %v", err)
	}
	return wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}
}

// derivedIn is a store whose derived state is kept in dir.
type derivedIn struct {
	*gitstore.Store
	dir string
}

func (s derivedIn) Dir() string { return s.dir }

// seeded returns a checkout with one commit holding files.
func seeded(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "seed", files)
	return dir
}

// repoState is everything a failed mutation must leave untouched.
type repoState struct {
	head, index, status string
	files               map[string]string
}

// captureState reads the state without changing it: git status does not
// refresh the index (which would also fail on a full disk).
func captureState(tb testing.TB, dir string) repoState {
	tb.Helper()
	st := repoState{
		head:   strings.TrimSpace(gittest.Git(tb, dir, "rev-parse", "HEAD")),
		status: gittest.Git(tb, dir, "--no-optional-locks", "status", "--porcelain"),
		files:  map[string]string{},
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil {
		st.index = string(b)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			st.files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return st
}

func (a repoState) assertEqual(tb testing.TB, b repoState) {
	tb.Helper()
	if a.head != b.head {
		tb.Errorf("HEAD moved: %s -> %s", a.head, b.head)
	}
	if a.index != b.index {
		tb.Errorf(".git/index changed")
	}
	if a.status != b.status {
		tb.Errorf("status changed:\n%s\n--- became ---\n%s", a.status, b.status)
	}
	for f, c := range a.files {
		if b.files[f] != c {
			tb.Errorf("file %s changed", f)
		}
	}
	for f := range b.files {
		if _, ok := a.files[f]; !ok {
			tb.Errorf("file %s appeared", f)
		}
	}
}

// commitInfo is one commit as the git CLI reports it.
type commitInfo struct {
	sha, author, committer, subject, body string
	trailers                              map[string]string
}

func lastCommit(tb testing.TB, dir string) commitInfo {
	tb.Helper()
	out := gittest.Git(tb, dir, "log", "-1", "--format=%H%x00%an <%ae>%x00%cn <%ce>%x00%s%x00%b")
	parts := strings.SplitN(out, "\x00", 5)
	c := commitInfo{sha: parts[0], author: parts[1], committer: parts[2], subject: parts[3], body: parts[4], trailers: map[string]string{}}
	tr := gittest.Git(tb, dir, "log", "-1", "--format=%(trailers:only,unfold)")
	for _, line := range strings.Split(strings.TrimSpace(tr), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			c.trailers[k] = v
		}
	}
	return c
}

func commitCount(tb testing.TB, dir string) int {
	tb.Helper()
	out, err := gittest.TryGit(dir, "rev-list", "--count", "HEAD")
	if err != nil {
		return 0
	}
	n := 0
	for _, c := range strings.TrimSpace(out) {
		n = n*10 + int(c-'0')
	}
	return n
}

// checkRepo runs the checks every successful mutation must pass.
func checkRepo(tb testing.TB, dir string) {
	tb.Helper()
	gittest.Fsck(tb, dir)
	if st := gittest.Status(tb, dir); st != "" {
		tb.Errorf("git status not clean after a mutation:\n%s", st)
	}
}

func wantCode(tb testing.TB, err error, code wiki.Code) {
	tb.Helper()
	if got := wiki.CodeOf(err); got != code {
		tb.Fatalf("error = %v (code %q), want code %s", err, got, code)
	}
}
