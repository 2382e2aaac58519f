package wiki_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Restore(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	seed := gitLines(t, s.dir, "rev-list", "--max-parents=0", "HEAD")[0]
	tests := []struct {
		name    string
		req     wiki.RestoreRequest
		file    string // the file restored
		content string // its content afterwards: git show <rev>:<file> before the restore
	}{
		{"an old version", wiki.RestoreRequest{Path: "a", Version: seed[:9]}, "a.md", seed + ":a.md"},
		{"HEAD~N", wiki.RestoreRequest{Path: "a", Version: "HEAD~2"}, "a.md", "HEAD~2:a.md"},
		{"renamed since, under its old name", wiki.RestoreRequest{Path: "c-renamed", Version: seed}, "c-renamed.md", seed + ":folder/c.md"},
		{"moved away: its last version", wiki.RestoreRequest{Path: "b"}, "b.md", seed + ":b.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD"))
			oldLog := gittest.Git(t, s.dir, "log", "--format=%H %T %P")
			want := gittest.Git(t, s.dir, "show", tc.content) // before the restore moves HEAD
			tc.req.Mutation = hm
			res, err := s.w.Restore(ctx, tc.req)
			if err != nil {
				t.Fatalf("restore: %v", err)
			}
			checkOneCommit(t, s.dir, before, oldLog, res.Commit)
			if got := gittest.Git(t, s.dir, "show", "HEAD:"+tc.file); got != want {
				t.Errorf("restored %s = %q, want %q", tc.file, got, want)
			}
			c := lastCommit(t, s.dir)
			if c.trailers["Wiki-Tool"] != "restore" || !strings.HasPrefix(c.subject, "restore: ") || !strings.Contains(c.body, "Restored from ") {
				t.Errorf("commit = %+v", c)
			}
		})
	}
	t.Run("a deleted note: its last version", func(t *testing.T) {
		content := gittest.Git(t, s.dir, "show", "HEAD:notes/log.md")
		s.delete(t, "notes/log")
		before := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD"))
		oldLog := gittest.Git(t, s.dir, "log", "--format=%H %T %P")
		res, err := s.w.Restore(ctx, wiki.RestoreRequest{Path: "notes/log", Mutation: hm})
		if err != nil {
			t.Fatal(err)
		}
		checkOneCommit(t, s.dir, before, oldLog, res.Commit)
		if got := gittest.Git(t, s.dir, "show", "HEAD:notes/log.md"); got != content {
			t.Errorf("undeleted %q, want %q", got, content)
		}
		if res.Changes[0].Action != wiki.ActionCreated {
			t.Errorf("changes = %+v", res.Changes)
		}
	})
	t.Run("dry run", func(t *testing.T) {
		st := captureState(t, s.dir)
		res, err := s.w.Restore(ctx, wiki.RestoreRequest{Path: "a", Version: seed, Mutation: wiki.Mutation{DryRun: true}})
		if err != nil {
			t.Fatal(err)
		}
		st.assertEqual(t, captureState(t, s.dir))
		if res.Commit != "" || !strings.Contains(res.Diff, "+SIX") && !strings.Contains(res.Diff, "-SIX") {
			t.Errorf("dry run = %+v", res)
		}
	})
	t.Run("refused", func(t *testing.T) {
		st := captureState(t, s.dir)
		for _, tc := range []struct {
			req  wiki.RestoreRequest
			code wiki.Code
		}{
			{wiki.RestoreRequest{Path: "a"}, wiki.CodeInvalidParams},
			{wiki.RestoreRequest{Path: "a", Version: seed, Mutation: wiki.Mutation{ExpectedVersion: "0123456789"}}, wiki.CodeConflict},
			{wiki.RestoreRequest{Path: "e", Version: seed}, wiki.CodeNotFound},
			{wiki.RestoreRequest{Path: "a", Version: "no-such-rev"}, wiki.CodeNotFound},
			{wiki.RestoreRequest{Path: "never-was"}, wiki.CodeNotFound},
		} {
			_, err := s.w.Restore(ctx, tc.req)
			wantCode(t, err, tc.code)
		}
		st.assertEqual(t, captureState(t, s.dir))
	})
	t.Run("the same content", func(t *testing.T) {
		before := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD"))
		res, err := s.w.Restore(ctx, wiki.RestoreRequest{Path: "a", Version: "HEAD", Mutation: hm})
		if err != nil {
			t.Fatal(err)
		}
		if res.Commit != "" || strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD")) != before {
			t.Errorf("restoring the current version committed: %+v", res)
		}
	})
}

// checkOneCommit checks that a mutation added exactly one commit on top of
// before and left every older commit as it was.
func checkOneCommit(t *testing.T, dir, before, oldLog, commit string) {
	t.Helper()
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	if head != commit {
		t.Errorf("HEAD is %s, the mutation returned %s", head, commit)
	}
	if parents := gitLines(t, dir, "rev-list", "--parents", "-1", "HEAD")[0]; parents != commit+" "+before {
		t.Errorf("new commit's parents: %s, want %s", parents, before)
	}
	if got := gittest.Git(t, dir, "log", "--format=%H %T %P", "HEAD~1"); got != oldLog {
		t.Errorf("older history changed")
	}
	checkRepo(t, dir)
}
