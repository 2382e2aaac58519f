package wiki_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

const planNote = "---\ntitle: Plan\ntags: [project]\n---\n# Plan\n\n## Tasks\n\n- write\n\n## Notes\n\nnothing yet\n"

var cli = wiki.Caller{Client: "test-client/1.0"}

func TestWiki_Mutations(t *testing.T) {
	ctx := context.Background()
	title := "Renamed"
	tests := []struct {
		name    string
		run     func(w *wiki.Wiki) (*wiki.Result, error)
		subject string
		tool    string
		file    string
		want    string // content of file after; "" means deleted
	}{
		{
			name: "create",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.Write(ctx, wiki.WriteRequest{Path: "ideas/new.md", Content: "# New\n\nhello\n", Mutation: wiki.Mutation{Caller: cli}})
			},
			subject: "create: ideas/new", tool: "write", file: "ideas/new.md", want: "# New\n\nhello\n",
		},
		{
			name: "overwrite",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.Write(ctx, wiki.WriteRequest{Path: "projects/plan", Content: "replaced\n", Overwrite: true, Mutation: wiki.Mutation{Caller: cli}})
			},
			subject: "write: projects/plan", tool: "write", file: "projects/plan.md", want: "replaced\n",
		},
		{
			name: "edit",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.Edit(ctx, wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{
					{Op: note.OpReplace, Find: "nothing yet", Content: "something"},
				}, Mutation: wiki.Mutation{Caller: cli, Message: "fill in notes"}})
			},
			subject: "edit: projects/plan", tool: "edit", file: "projects/plan.md",
			want: strings.Replace(planNote, "nothing yet", "something", 1),
		},
		{
			name: "metadata",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.UpdateMetadata(ctx, wiki.MetadataRequest{Path: "projects/plan", Change: note.MetaChange{Title: &title}, Mutation: wiki.Mutation{Caller: cli}})
			},
			subject: "metadata: projects/plan", tool: "metadata", file: "projects/plan.md",
			want: strings.Replace(planNote, "title: Plan", "title: Renamed", 1),
		},
		{
			name: "delete",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.Delete(ctx, wiki.DeleteRequest{Path: "projects/plan", Confirm: true, Mutation: wiki.Mutation{Caller: cli}})
			},
			subject: "delete: projects/plan", tool: "delete", file: "projects/plan.md",
		},
		{
			name: "daily",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				res, err := w.Daily(ctx, wiki.DailyRequest{Op: note.OpAppend, Content: "- met Ana", Mutation: wiki.Mutation{Caller: cli}})
				if err != nil {
					return nil, err
				}
				return res.Result, nil
			},
			subject: "daily: daily/2024-06-01", tool: "daily", file: "daily/2024-06-01.md",
			want: "---\ntitle: 2024-06-01\ntype: daily\ntags: [daily]\n---\n- met Ana\n",
		},
		{
			name: "batch",
			run: func(w *wiki.Wiki) (*wiki.Result, error) {
				return w.Apply(ctx, wiki.ApplyRequest{Changes: []wiki.Change{
					{Write: &wiki.WriteRequest{Path: "a", Content: "a\n"}},
					{Edit: &wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpAppend, Content: "more"}}}},
					{Delete: &wiki.DeleteRequest{Path: "projects/plan", Confirm: true}},
				}, Mutation: wiki.Mutation{Caller: cli}})
			},
			subject: "batch: 2 notes", tool: "apply", file: "a.md", want: "a\nmore\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := seeded(t, map[string]string{"projects/plan.md": planNote, "README.md": "# Wiki\n"})
			w := openWiki(t, dir, nil)
			before := commitCount(t, dir)
			base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))

			res, err := tt.run(w)
			if err != nil {
				t.Fatalf("mutation: %v", err)
			}
			if got := commitCount(t, dir); got != before+1 {
				t.Fatalf("commits: %d -> %d, want exactly one more", before, got)
			}
			c := lastCommit(t, dir)
			if c.sha != res.Commit {
				t.Errorf("result commit %s, HEAD %s", res.Commit, c.sha)
			}
			if c.subject != tt.subject {
				t.Errorf("subject %q, want %q", c.subject, tt.subject)
			}
			if c.author != "Ada Author <ada@example.com>" || c.committer != "wikid <wikid@example.com>" {
				t.Errorf("author %q committer %q", c.author, c.committer)
			}
			wantTrailers := map[string]string{"Wiki-Tool": tt.tool, "Wiki-Client": "test-client/1.0", "Wiki-Base": base}
			for k, v := range wantTrailers {
				if c.trailers[k] != v {
					t.Errorf("trailer %s = %q, want %q (all: %v)", k, c.trailers[k], v, c.trailers)
				}
			}
			checkRepo(t, dir)
			got, err := os.ReadFile(filepath.Join(dir, tt.file))
			switch {
			case tt.want == "" && !os.IsNotExist(err):
				t.Errorf("%s still exists after delete", tt.file)
			case tt.want != "" && string(got) != tt.want:
				t.Errorf("%s =\n%q\nwant\n%q", tt.file, got, tt.want)
			}
			if tt.want != "" {
				if blob := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD:"+tt.file)); !hasVersion(res, blob) {
					t.Errorf("result versions %+v lack the committed blob %s", res.Changes, blob)
				}
			}
			reflog := gittest.Git(t, dir, "reflog", "-1", "--format=%H %gs", "refs/heads/main")
			if !strings.HasPrefix(reflog, res.Commit+" commit: "+tt.subject) {
				t.Errorf("reflog = %q", reflog)
			}
		})
	}
}

func hasVersion(res *wiki.Result, blob string) bool {
	for _, c := range res.Changes {
		if c.Version == blob {
			return true
		}
	}
	return false
}

func TestWiki_FailedMutationsChangeNothing(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		run   func(w *wiki.Wiki) error
		code  wiki.Code
	}{
		{"invalid path", nil, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "../escape", Content: "x"})
			return err
		}, wiki.CodeInvalidPath},
		{"exists", nil, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "projects/plan", Content: "x"})
			return err
		}, wiki.CodeAlreadyExists},
		{"conflict", nil, func(w *wiki.Wiki) error {
			_, err := w.Edit(ctx, wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{{Op: note.OpAppend, Content: "x"}},
				Mutation: wiki.Mutation{ExpectedVersion: "0123456789abcdef0123456789abcdef01234567"}})
			return err
		}, wiki.CodeConflict},
		{"too large", nil, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "big", Content: strings.Repeat("x", wiki.DefaultMaxNoteSize+1)})
			return err
		}, wiki.CodeTooLarge},
		{"missing section", nil, func(w *wiki.Wiki) error {
			_, err := w.Edit(ctx, wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{
				{Op: note.OpAppend, Content: "first"}, {Op: note.OpAppendSection, Section: "Nope", Content: "x"}}})
			return err
		}, wiki.CodeNotFound},
		{"unconfirmed delete", nil, func(w *wiki.Wiki) error {
			_, err := w.Delete(ctx, wiki.DeleteRequest{Path: "projects/plan"})
			return err
		}, wiki.CodeInvalidParams},
		{"local changes", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"projects/plan.md": "edited by a person\n"})
		}, func(w *wiki.Wiki) error {
			_, err := w.Edit(ctx, wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{{Op: note.OpAppend, Content: "x"}}})
			return err
		}, wiki.CodeLocalChanges},
		{"untracked file in the way", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{"ideas/new.md": "a person's draft\n"})
		}, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "ideas/new", Content: "x"})
			return err
		}, wiki.CodeLocalChanges},
		{"batch fails as a whole", nil, func(w *wiki.Wiki) error {
			_, err := w.Apply(ctx, wiki.ApplyRequest{Changes: []wiki.Change{
				{Write: &wiki.WriteRequest{Path: "ok", Content: "fine\n"}},
				{Edit: &wiki.EditRequest{Path: "missing", Edits: []note.Edit{{Op: note.OpAppend, Content: "x"}}}},
			}})
			return err
		}, wiki.CodeNotFound},
		{"git lock file of another process", func(t *testing.T, dir string) {
			gittest.WriteFiles(t, dir, map[string]string{".git/index.lock": "a git command's\n"})
		}, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "x", Content: "x"})
			return err
		}, wiki.CodeLocked},
		{"detached HEAD", func(t *testing.T, dir string) {
			gittest.Git(t, dir, "checkout", "-q", "--detach")
		}, func(w *wiki.Wiki) error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "x", Content: "x"})
			if !errors.Is(err, wiki.ErrDetached) {
				return fmt.Errorf("not ErrDetached: %w", err)
			}
			return err
		}, wiki.CodeReadOnly},
		{"read-only", nil, nil, wiki.CodeReadOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := seeded(t, map[string]string{"projects/plan.md": planNote})
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			readOnly := tt.run == nil
			w := openWiki(t, dir, func(o *wiki.Options) { o.ReadOnly = readOnly })
			before := captureState(t, dir)
			run := tt.run
			if readOnly {
				run = func(w *wiki.Wiki) error {
					_, err := w.Write(ctx, wiki.WriteRequest{Path: "x", Content: "x"})
					return err
				}
			}
			wantCode(t, run(w), tt.code)
			before.assertEqual(t, captureState(t, dir))
			gittest.Fsck(t, dir)
		})
	}
}

func TestWiki_DryRunEqualsCommit(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"projects/plan.md": planNote})
	w := openWiki(t, dir, nil)
	req := wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{
		{Op: note.OpAppendSection, Section: "Tasks", Content: "- test"},
		{Op: note.OpReplace, Find: "nothing yet", Content: "plenty"},
	}}
	before := captureState(t, dir)
	req.DryRun = true
	preview, err := w.Edit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	before.assertEqual(t, captureState(t, dir))
	if preview.Commit != "" || preview.Diff == "" || preview.Risk == "" {
		t.Fatalf("dry run result %+v", preview)
	}
	req.DryRun = false
	res, err := w.Edit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if preview.Changes[0].Version != res.Changes[0].Version {
		t.Errorf("dry run predicted version %s, commit made %s", preview.Changes[0].Version, res.Changes[0].Version)
	}
	// The preview's diff applies to the old content and gives the committed note.
	gittest.Git(t, dir, "checkout", "-q", "HEAD~1", "--", "projects/plan.md")
	patch := filepath.Join(t.TempDir(), "p.diff")
	os.WriteFile(patch, []byte(preview.Diff), 0o644)
	gittest.Git(t, dir, "apply", patch)
	if d := gittest.Git(t, dir, "diff", "HEAD", "--", "projects/plan.md"); d != "" {
		t.Errorf("preview diff does not reproduce the commit:\n%s", d)
	}
}

func TestWiki_ExpectedVersion(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"projects/plan.md": planNote})
	w := openWiki(t, dir, nil)
	r, err := w.Read(ctx, wiki.ReadRequest{Path: "projects/plan"})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(v string) error {
		_, err := w.Edit(ctx, wiki.EditRequest{Path: "projects/plan", Edits: []note.Edit{{Op: note.OpAppend, Content: "x"}},
			Mutation: wiki.Mutation{ExpectedVersion: v}})
		return err
	}
	if err := edit(r.Version[:7]); err != nil {
		t.Fatalf("edit at the current version (short): %v", err)
	}
	err = edit(r.Version)
	wantCode(t, err, wiki.CodeConflict)
	var e *wiki.Error
	if !errors.As(err, &e) || e.Details["current_version"] == r.Version || e.Details["current_version"] == "" {
		t.Errorf("conflict details %v should carry the new current version", e.Details)
	}
}
