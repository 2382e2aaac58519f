package history_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/history"
)

// benchNotes and benchCommits size the generated repository.
const (
	benchNotes   = 10000
	benchCommits = 10000
	hotRevisions = 50
)

// benchRepo returns a checkout of the generated 10,000-note, 10,000-commit
// wiki plus hotRevisions commits that each edit one note (written with git
// fast-import), and that note's file.
func benchRepo(b *testing.B) (dir, hot string) {
	b.Helper()
	dir = b.TempDir()
	gittest.Generate(b, dir, benchNotes, benchCommits)
	hot = gitLines(b, dir, "ls-files", "projects")[0]
	content := gittest.Git(b, dir, "show", "HEAD:"+hot)
	var s bytes.Buffer
	when := 1900000000
	for i := range hotRevisions {
		lines := strings.Split(content, "\n")
		lines[min(5+i%7, len(lines)-1)] += fmt.Sprintf(" (revised %d)", i)
		content = strings.Join(lines, "\n") + fmt.Sprintf("Revision %d of the hot note.\n", i)
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\n", when+i*60)
		msg := fmt.Sprintf("revise %s (%d)", hot, i)
		fmt.Fprintf(&s, "data %d\n%s\n", len(msg), msg)
		if i == 0 {
			s.WriteString("from refs/heads/main^0\n")
		}
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n%s\n", hot, len(content), content)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	cmd.Env = gittest.Env()
	cmd.Stdin = &s
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git fast-import: %v\n%s", err, out)
	}
	gittest.Git(b, dir, "reset", "-q", "--hard", "main")
	return dir, hot
}

// syncedIndex opens the history index of dir and brings it to HEAD.
func syncedIndex(b *testing.B, dir string) (*history.Index, string) {
	b.Helper()
	x, _ := openIndex(b, dir)
	return x, syncHead(b, x, dir)
}

// BenchmarkIndex_Build is the one-time cost of building the history index
// of the generated wiki from its commits.
func BenchmarkIndex_Build(b *testing.B) {
	dir, _ := benchRepo(b)
	ctx := context.Background()
	head := revParse(b, dir, "HEAD")
	for range b.N {
		b.StopTimer()
		if err := os.RemoveAll(filepath.Join(dir, ".git", "wikid")); err != nil {
			b.Fatal(err)
		}
		x, _ := openIndex(b, dir)
		b.StartTimer()
		if err := x.Sync(ctx, head); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		x.Close(ctx)
	}
}

// BenchmarkIndex_Open is opening an index built before and syncing it to
// the same HEAD: reading the whole file.
func BenchmarkIndex_Open(b *testing.B) {
	dir, _ := benchRepo(b)
	syncedIndex(b, dir)
	ctx := context.Background()
	head := revParse(b, dir, "HEAD")
	for b.Loop() {
		x, _ := openIndex(b, dir)
		if err := x.Sync(ctx, head); err != nil {
			b.Fatal(err)
		}
		x.Close(ctx)
	}
}

// BenchmarkIndex_Log is the history of a note with 50 revisions, next to
// git log.
func BenchmarkIndex_Log(b *testing.B) {
	dir, hot := benchRepo(b)
	x, head := syncedIndex(b, dir)
	ctx := context.Background()
	for _, follow := range []bool{true, false} {
		name := "follow"
		args := []string{"log", "--follow", "--format=%H", "--", hot}
		if !follow {
			name, args = "no follow", []string{"log", "--format=%H", "--", hot}
		}
		want := gitLines(b, dir, args...)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				revs, err := x.Log(ctx, head, hot, follow)
				if err != nil || len(revs) != len(want) {
					b.Fatalf("Log: %d revisions, git has %d; %v", len(revs), len(want), err)
				}
			}
		})
		b.Run(name+"/git", func(b *testing.B) {
			for b.Loop() {
				gittest.Git(b, dir, args...)
			}
		})
	}
}

// BenchmarkIndex_Blame is blame of the note with 50 revisions, next to git
// blame.
func BenchmarkIndex_Blame(b *testing.B) {
	dir, hot := benchRepo(b)
	x, head := syncedIndex(b, dir)
	ctx := context.Background()
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if _, err := x.Blame(ctx, head, hot); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("git", func(b *testing.B) {
		for b.Loop() {
			gittest.Git(b, dir, "blame", "--porcelain", "--", hot)
		}
	})
}
