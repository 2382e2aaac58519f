package wiki_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

const tenLines = "# Ten\n\nl1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n"

// TestWiki_Revert reverts commits and compares the result with git revert
// in a clone at the same HEAD.
func TestWiki_Revert(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// build makes the history and returns the commit to revert.
		build func(t *testing.T, s *scenario) string
		// gone and present are files after the revert.
		gone, present []string
	}{
		{"the last commit", func(t *testing.T, s *scenario) string {
			return s.edit(t, "ten", "l2\n", "L2\n")
		}, nil, []string{"ten.md"}},
		{"under a later edit elsewhere", func(t *testing.T, s *scenario) string {
			c := s.edit(t, "ten", "l2\n", "L2\n")
			s.edit(t, "ten", "l8\n", "L8\n")
			return c
		}, nil, []string{"ten.md"}},
		{"a created note", func(t *testing.T, s *scenario) string {
			return s.write(t, "fresh", "# Fresh\n", false)
		}, []string{"fresh.md"}, nil},
		{"a deleted note", func(t *testing.T, s *scenario) string {
			return s.delete(t, "ten")
		}, nil, []string{"ten.md"}},
		{"a move, edited since", func(t *testing.T, s *scenario) string {
			res, err := s.w.Move(ctx, wiki.MoveRequest{Path: "ten", NewPath: "dir/ten2", Mutation: hm})
			if err != nil {
				t.Fatal(err)
			}
			s.edit(t, "dir/ten2", "l7\n", "L7\n")
			return res.Commit
		}, []string{"dir/ten2.md"}, []string{"ten.md"}},
		{"an edit, renamed since outside wikid", func(t *testing.T, s *scenario) string {
			c := s.edit(t, "ten", "l2\n", "L2\n")
			gittest.Git(t, s.dir, "mv", "ten.md", "moved.md")
			gittest.Commit(t, s.dir, "move ten", map[string]string{"moved.md": "# Ten\n\nl1\nL2\nl3\nl4\nl5\nl6\nl7\nL8\n"})
			return c
		}, []string{"ten.md"}, []string{"moved.md"}},
		{"a rename with an edit made outside wikid", func(t *testing.T, s *scenario) string {
			gittest.Git(t, s.dir, "mv", "ten.md", "eleven.md")
			c := gittest.Commit(t, s.dir, "rename ten", map[string]string{"eleven.md": tenLines + "l9\n"})
			s.edit(t, "eleven", "l1\n", "L1\n")
			return c
		}, []string{"eleven.md"}, []string{"ten.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := revertScenario(t)
			target := tc.build(t, s)
			wantTree := gitRevertTree(t, s.dir, target)
			before := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD"))
			oldLog := gittest.Git(t, s.dir, "log", "--format=%H %T %P")
			res, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: target[:10], Mutation: hm})
			if err != nil {
				t.Fatalf("revert: %v", err)
			}
			checkOneCommit(t, s.dir, before, oldLog, res.Commit)
			if got := strings.TrimSpace(gittest.Git(t, s.dir, "rev-parse", "HEAD^{tree}")); got != wantTree {
				t.Errorf("tree after revert differs from git revert's:\n%s", gittest.Git(t, s.dir, "diff", wantTree, "HEAD"))
			}
			for _, f := range tc.gone {
				if blobAt(s.dir, "HEAD", f) != "" {
					t.Errorf("%s still exists", f)
				}
			}
			for _, f := range tc.present {
				if blobAt(s.dir, "HEAD", f) == "" {
					t.Errorf("%s does not exist", f)
				}
			}
			c := lastCommit(t, s.dir)
			if c.trailers["Wiki-Tool"] != "revert" || !strings.HasPrefix(c.subject, "revert: "+target[:7]+" ") ||
				!strings.Contains(c.body, "This reverts commit "+target+".") {
				t.Errorf("commit = %+v", c)
			}
		})
	}
}

func TestWiki_RevertConflict(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		build func(t *testing.T, s *scenario) string
		want  string // in the error message
	}{
		{"overlapping edits", func(t *testing.T, s *scenario) string {
			c := s.edit(t, "ten", "l2\n", "L2\n")
			s.edit(t, "ten", "L2\n", "L2 again\n")
			return c
		}, "<<<<<<< now\nL2 again\n||||||| "},
		{"a created note changed since", func(t *testing.T, s *scenario) string {
			c := s.write(t, "fresh", "# Fresh\n", false)
			s.edit(t, "fresh", "# Fresh\n", "# Fresh\n\nmore\n")
			return c
		}, "fresh: the note changed since it was created"},
		{"a deleted note written again", func(t *testing.T, s *scenario) string {
			c := s.delete(t, "ten")
			s.write(t, "ten", "# Another ten\n", false)
			return c
		}, "ten: a note with other content exists"},
		{"an edited note deleted since", func(t *testing.T, s *scenario) string {
			c := s.edit(t, "ten", "l2\n", "L2\n")
			s.delete(t, "ten")
			return c
		}, "ten: the note was deleted or moved since"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := revertScenario(t)
			target := tc.build(t, s)
			if _, err := gittest.TryGit(cloneAt(t, s.dir), "revert", "--no-edit", target); err == nil {
				t.Errorf("git revert succeeds where wikid finds a conflict")
			}
			st := captureState(t, s.dir)
			for _, dry := range []bool{true, false} {
				_, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: target, Mutation: wiki.Mutation{DryRun: dry}})
				wantCode(t, err, wiki.CodeConflict)
				var ne *wiki.Error
				errors.As(err, &ne)
				if !strings.Contains(ne.Message, tc.want) {
					t.Errorf("message %q does not contain %q", ne.Message, tc.want)
				}
				cs, _ := ne.Details["conflicts"].([]wiki.RevertConflict)
				if len(cs) != 1 || (cs[0].Reason == "" && len(cs[0].Hunks) == 0) {
					t.Errorf("details = %+v", ne.Details)
				}
			}
			st.assertEqual(t, captureState(t, s.dir))
		})
	}
	t.Run("hunks", func(t *testing.T) {
		s := revertScenario(t)
		c := s.edit(t, "ten", "l2\n", "L2\n")
		s.edit(t, "ten", "L2\n", "L2 again\n")
		_, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: c})
		var ne *wiki.Error
		errors.As(err, &ne)
		cs := ne.Details["conflicts"].([]wiki.RevertConflict)
		want := wiki.ConflictHunk{Line: 4, Now: "L2 again\n", Commit: "L2\n", Before: "l2\n"}
		if len(cs[0].Hunks) != 1 || cs[0].Hunks[0] != want || cs[0].Path != "ten" {
			t.Errorf("conflict = %+v, want one hunk %+v", cs, want)
		}
	})
}

func TestWiki_RevertRefused(t *testing.T) {
	ctx := context.Background()
	s := revertScenario(t)
	gittest.Commit(t, s.dir, "not a note", map[string]string{"data.txt": "x\n"})
	clone := cloneAt(t, s.dir)
	gittest.Commit(t, clone, "in the clone", map[string]string{"c.md": "# C\n"})
	s.edit(t, "ten", "l1\n", "L1\n")
	gittest.Git(t, s.dir, "fetch", "-q", clone, "main")
	gittest.Git(t, s.dir, "merge", "-q", "--no-edit", "-m", "merge", "FETCH_HEAD")
	st := captureState(t, s.dir)
	for _, tc := range []struct {
		rev  string
		code wiki.Code
	}{
		{"HEAD", wiki.CodeInvalidParams},    // a merge
		{"HEAD^2^", wiki.CodeInvalidParams}, // changed no note
		{"nope", wiki.CodeNotFound},
	} {
		_, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: tc.rev})
		wantCode(t, err, tc.code)
	}
	st.assertEqual(t, captureState(t, s.dir))
	t.Run("dry run", func(t *testing.T) {
		res, err := s.w.Revert(ctx, wiki.RevertRequest{Commit: "HEAD^1", Mutation: wiki.Mutation{DryRun: true}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.DryRun || res.Commit != "" || !strings.Contains(res.Diff, "-L1\n+l1\n") {
			t.Errorf("dry run = %+v", res)
		}
		st.assertEqual(t, captureState(t, s.dir))
	})
}

// revertScenario is a checkout with a note of ten lines, written by wikid.
func revertScenario(t *testing.T) *scenario {
	t.Helper()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"README.md": "# Wiki\n"})
	s := &scenario{dir: dir, w: openHistoryWiki(t, dir)}
	s.write(t, "ten", tenLines, false)
	return s
}

// cloneAt clones dir into a new folder.
func cloneAt(t *testing.T, dir string) string {
	t.Helper()
	clone := t.TempDir()
	gittest.Git(t, clone, "clone", "-q", dir, ".")
	return clone
}

// gitRevertTree returns the tree git revert makes of commit on top of
// dir's HEAD, in a clone.
func gitRevertTree(t *testing.T, dir, commit string) string {
	t.Helper()
	clone := cloneAt(t, dir)
	gittest.Git(t, clone, "revert", "--no-edit", commit)
	return strings.TrimSpace(gittest.Git(t, clone, "rev-parse", "HEAD^{tree}"))
}
