package wiki_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// historyBench is the generated 10,000-note, 10,000-commit wiki plus 50
// commits that each revise one note, opened with a history index (and no
// search index, whose build would compete for the machine).
type historyBench struct {
	dir, hot string // hot is the revised note's file
	w        *wiki.Wiki
}

func newHistoryBench(b *testing.B) *historyBench {
	b.Helper()
	hb := &historyBench{dir: b.TempDir()}
	gittest.Generate(b, hb.dir, 10000, 10000)
	hb.hot = gitLines(b, hb.dir, "ls-files", "projects")[0]
	content := gittest.Git(b, hb.dir, "show", "HEAD:"+hb.hot)
	var s bytes.Buffer
	for i := range 50 {
		lines := strings.Split(content, "\n")
		lines[min(5+i%7, len(lines)-1)] += fmt.Sprintf(" (revised %d)", i)
		content = strings.Join(lines, "\n") + fmt.Sprintf("Revision %d of the hot note.\n", i)
		msg := fmt.Sprintf("revise %s (%d)", hb.hot, i)
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", 1900000000+60*i, len(msg), msg)
		if i == 0 {
			s.WriteString("from refs/heads/main^0\n")
		}
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", hb.hot, len(content), content)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = hb.dir, gittest.Env(), &s
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git fast-import: %v\n%s", err, out)
	}
	gittest.Git(b, hb.dir, "reset", "-q", "--hard", "main")

	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := gitstore.Open(ctx, hb.dir, gitstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if hb.w, err = wiki.Open(ctx, deps(b, store, logger, nil), wiki.Options{Logger: logger}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { hb.w.Close(ctx) })
	// Build the history index before timing anything.
	if _, err := hb.w.History(ctx, wiki.HistoryRequest{Path: hb.hot}); err != nil {
		b.Fatal(err)
	}
	return hb
}

func (hb *historyBench) notePath() string {
	p, _, _ := note.SplitFileName(hb.hot)
	return p
}

// git runs the git CLI as a benchmark's yardstick.
func (hb *historyBench) git(b *testing.B, args ...string) {
	for b.Loop() {
		gittest.Git(b, hb.dir, args...)
	}
}

// BenchmarkWiki_HistoryTools times every history tool on the generated
// wiki next to the git command that does the same job.
func BenchmarkWiki_HistoryTools(b *testing.B) {
	hb := newHistoryBench(b)
	ctx := context.Background()
	p := hb.notePath()
	b.Run("note_history", func(b *testing.B) {
		for b.Loop() {
			res, err := hb.w.History(ctx, wiki.HistoryRequest{Path: p})
			if err != nil || res.Total < 50 {
				b.Fatalf("history: %v, %+v", err, res)
			}
		}
	})
	b.Run("note_history/git log --follow", func(b *testing.B) {
		hb.git(b, "log", "--follow", "--format=%H %an %ad %s", "--numstat", "--", hb.hot)
	})
	b.Run("note_history no follow", func(b *testing.B) {
		for b.Loop() {
			if _, err := hb.w.History(ctx, wiki.HistoryRequest{Path: p, NoFollow: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("note_history no follow/git log", func(b *testing.B) {
		hb.git(b, "log", "--format=%H %an %ad %s", "--numstat", "--", hb.hot)
	})
	b.Run("diff_versions", func(b *testing.B) {
		for b.Loop() {
			res, err := hb.w.Diff(ctx, wiki.DiffRequest{Path: p, From: "HEAD~40", To: "HEAD~10"})
			if err != nil || res.Additions == 0 {
				b.Fatalf("diff: %v, %+v", err, res)
			}
		}
	})
	b.Run("diff_versions/git diff", func(b *testing.B) {
		hb.git(b, "diff", "HEAD~40", "HEAD~10", "--", hb.hot)
	})
	b.Run("blame_note", func(b *testing.B) {
		for b.Loop() {
			if _, err := hb.w.Blame(ctx, wiki.BlameRequest{Path: p}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("blame_note/git blame", func(b *testing.B) {
		hb.git(b, "blame", "--porcelain", "--", hb.hot)
	})
	b.Run("activity_log", func(b *testing.B) {
		for b.Loop() {
			res, err := hb.w.Activity(ctx, wiki.ActivityRequest{Limit: 20})
			if err != nil || len(res.Commits) != 20 {
				b.Fatalf("activity: %v", err)
			}
		}
	})
	b.Run("activity_log/git log", func(b *testing.B) {
		hb.git(b, "log", "-20", "--numstat", "-M", "--format=%H %an %ad %s%n%(trailers)")
	})
	b.Run("activity_log by author", func(b *testing.B) {
		for b.Loop() {
			if _, err := hb.w.Activity(ctx, wiki.ActivityRequest{Limit: 20, Author: "writer@"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("activity_log by author/git log", func(b *testing.B) {
		hb.git(b, "log", "-20", "--author=writer@", "--numstat", "-M", "--format=%H %an %ad %s%n%(trailers)")
	})
	b.Run("recent_changes", func(b *testing.B) {
		for b.Loop() {
			if _, err := hb.w.RecentChanges(ctx, wiki.RecentRequest{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
