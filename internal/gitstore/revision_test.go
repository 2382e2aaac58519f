package gitstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"

	"github.com/wikid/wikid/internal/gittest"
)

func TestStore_ResolveRevision(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	c1 := gittest.Commit(t, dir, "one", map[string]string{"a.md": "1\n"})
	c2 := gittest.Commit(t, dir, "two", map[string]string{"a.md": "2\n"})
	gittest.Git(t, dir, "tag", "light")
	gittest.Git(t, dir, "tag", "-a", "-m", "annotated", "v1")
	gittest.Git(t, dir, "checkout", "-q", "-b", "side", c1)
	side := gittest.Commit(t, dir, "side", map[string]string{"b.md": "b\n"})
	gittest.Git(t, dir, "checkout", "-q", "main")
	gittest.Git(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	merge := rev(t, dir, "HEAD")
	c4 := gittest.Commit(t, dir, "four", map[string]string{"a.md": "4\n"})
	gittest.Git(t, dir, "update-ref", "refs/remotes/origin/main", c2)
	gittest.Git(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	gittest.Git(t, dir, "tag", "tree-tag", c4+"^{tree}")

	tests := []struct {
		rev  string
		want string
		code wiki.Code
	}{
		{rev: c4, want: c4},
		{rev: strings.ToUpper(c4), want: c4},
		{rev: c2[:7], want: c2},
		{rev: c2[:4], want: c2},
		{rev: "HEAD", want: c4},
		{rev: "@", want: c4},
		{rev: "HEAD~", want: merge},
		{rev: "HEAD~1", want: merge},
		{rev: "HEAD^", want: merge},
		{rev: "HEAD~2", want: c2},
		{rev: "HEAD^^", want: c2},
		{rev: "HEAD~1^2", want: side},
		{rev: "HEAD^1^2", want: side},
		{rev: "HEAD~1^2~1", want: c1},
		{rev: "HEAD^0", want: c4},
		{rev: "main", want: c4},
		{rev: "refs/heads/main", want: c4},
		{rev: "heads/main", want: c4},
		{rev: "side", want: side},
		{rev: "light", want: c2},
		{rev: "v1", want: c2},
		{rev: "v1~1", want: c1},
		{rev: "origin/main", want: c2},
		{rev: "origin", want: c2},
		{rev: c1[:10] + "~0", want: c1},
		{rev: "HEAD~4", code: wiki.CodeNotFound},
		{rev: "HEAD^3", code: wiki.CodeNotFound},
		{rev: "HEAD:a.md", code: wiki.CodeNotFound},
		{rev: "HEAD~x", code: wiki.CodeNotFound},
		{rev: "nope", code: wiki.CodeNotFound},
		{rev: "", code: wiki.CodeNotFound},
		{rev: "../../config", code: wiki.CodeNotFound},
		{rev: "tree-tag", code: wiki.CodeNotFound},
		{rev: rev(t, dir, "HEAD:a.md"), code: wiki.CodeNotFound},
		{rev: rev(t, dir, "HEAD:a.md")[:12], code: wiki.CodeNotFound},
		{rev: strings.Repeat("1", 40), code: wiki.CodeNotFound},
		{rev: "abc", code: wiki.CodeNotFound},
	}
	check := func(t *testing.T, s *Store) {
		for _, tc := range tests {
			t.Run(tc.rev, func(t *testing.T) {
				got, err := s.ResolveRevision(ctx, tc.rev)
				if tc.code != "" {
					wantCode(t, err, tc.code)
					return
				}
				if err != nil || got != tc.want {
					t.Errorf("ResolveRevision(%q) = %s, %v; want %s", tc.rev, got, err, tc.want)
				}
			})
		}
	}
	t.Run("loose", func(t *testing.T) { check(t, openStore(t, dir)) })
	gittest.Git(t, dir, "gc", "-q")
	gittest.Git(t, dir, "pack-refs", "--all")
	t.Run("packed", func(t *testing.T) { check(t, openStore(t, dir)) })
}

func TestStore_ResolveRevision_Unborn(t *testing.T) {
	s := openStore(t, gittest.Init(t))
	for _, r := range []string{"HEAD", "main", "HEAD~1"} {
		_, err := s.ResolveRevision(context.Background(), r)
		wantCode(t, err, wiki.CodeNotFound)
	}
}

// TestStore_ResolveRevision_ShortIDs uses a history of 1,000 commits, where
// some commits share their first four hex digits with other commits and
// some with blobs or trees only.
func TestStore_ResolveRevision_ShortIDs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gittest.Generate(t, dir, 50, 1000)
	kinds := make(map[string][]string) // prefix → "type id"
	for _, line := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "cat-file",
		"--batch-all-objects", "--batch-check=%(objecttype) %(objectname)")), "\n") {
		typ, id, _ := strings.Cut(line, " ")
		kinds[id[:4]] = append(kinds[id[:4]], typ+" "+id)
	}
	var ambiguous, withOthers, notCommit []string
	for prefix, objs := range kinds {
		var commits []string
		for _, o := range objs {
			if id, ok := strings.CutPrefix(o, "commit "); ok {
				commits = append(commits, id)
			}
		}
		switch {
		case len(commits) > 1:
			ambiguous = append(ambiguous, prefix)
		case len(commits) == 1 && len(objs) > 1:
			withOthers = append(withOthers, prefix)
		case len(commits) == 0:
			notCommit = append(notCommit, prefix)
		}
	}
	if len(ambiguous) == 0 || len(withOthers) == 0 || len(notCommit) == 0 {
		t.Fatalf("the generated history lacks a case: %d ambiguous, %d shared with other objects, %d without commits",
			len(ambiguous), len(withOthers), len(notCommit))
	}
	s := openStore(t, dir)
	for _, prefix := range ambiguous[:min(3, len(ambiguous))] {
		_, err := s.ResolveRevision(ctx, prefix)
		wantCode(t, err, wiki.CodeAmbiguous)
		var e *wiki.Error
		errors.As(err, &e)
		got, _ := e.Details["candidates"].([]string)
		var want []string
		for _, o := range kinds[prefix] {
			if id, ok := strings.CutPrefix(o, "commit "); ok {
				want = append(want, id)
			}
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: candidates %v, want %v", prefix, got, want)
		}
		for _, id := range want {
			if !strings.Contains(err.Error(), id) {
				t.Errorf("%s: message %q does not name %s", prefix, err, id)
			}
			if got, err := s.ResolveRevision(ctx, id[:12]); err != nil || got != id {
				t.Errorf("ResolveRevision(%s) = %s, %v", id[:12], got, err)
			}
		}
	}
	for _, prefix := range withOthers[:min(3, len(withOthers))] {
		got, err := s.ResolveRevision(ctx, prefix)
		if err != nil || got != rev(t, dir, prefix+"^{commit}") {
			t.Errorf("ResolveRevision(%s) = %s, %v; want the one commit", prefix, got, err)
		}
	}
	for _, prefix := range notCommit[:min(3, len(notCommit))] {
		_, err := s.ResolveRevision(ctx, prefix)
		wantCode(t, err, wiki.CodeNotFound)
	}
}
