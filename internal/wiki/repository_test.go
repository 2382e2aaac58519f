package wiki_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Commit reads commits with their messages taken apart, as git
// log shows them.
func TestWiki_Commit(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	w := openWiki(t, dir, nil)
	res, err := w.Edit(ctx, wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpAppend, Content: "more\n"}},
		Mutation: wiki.Mutation{Message: "why it changed", Caller: wiki.Caller{Client: "claude-code/1.0", Tool: "edit_note"}}})
	if err != nil {
		t.Fatal(err)
	}
	seed := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD~1"))
	tests := []struct {
		name, rev string
		want      wiki.CommitResult // ID, Subject, Body, Tool, Client, the trailers' keys
		keys      []string
		code      wiki.Code
	}{
		{"wikid's, by HEAD", "HEAD", wiki.CommitResult{ID: res.Commit, Subject: "edit: a", Body: "why it changed", Tool: "edit_note", Client: "claude-code/1.0"},
			[]string{"Wiki-Tool", "Wiki-Client", "Wiki-Base"}, ""},
		{"a person's, by short sha", seed[:8], wiki.CommitResult{ID: seed, Subject: "seed"}, nil, ""},
		{"unknown", "0123456789abcdef", wiki.CommitResult{}, nil, wiki.CodeNotFound},
		{"no such branch", "nope", wiki.CommitResult{}, nil, wiki.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := w.Commit(ctx, tt.rev)
			if tt.code != "" {
				if wiki.CodeOf(err) != tt.code {
					t.Fatalf("Commit(%q) = %v, want %s", tt.rev, err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tt.want.ID || got.Subject != tt.want.Subject || got.Body != tt.want.Body || got.Tool != tt.want.Tool || got.Client != tt.want.Client {
				t.Errorf("Commit(%q) = %+v\nwant %+v", tt.rev, got, tt.want)
			}
			var keys []string
			for _, tr := range got.Trailers {
				keys = append(keys, tr.Key)
			}
			if !reflect.DeepEqual(keys, tt.keys) {
				t.Errorf("trailers %v, want the keys %v", got.Trailers, tt.keys)
			}
			wantParents := strings.Fields(gittest.Git(t, dir, "log", "-1", "--format=%P", got.ID))
			if len(got.Parents) != len(wantParents) || got.Short != got.ID[:len(got.Short)] {
				t.Errorf("parents %v (git: %v), short %q", got.Parents, wantParents, got.Short)
			}
			if by := gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>", got.ID); by != got.Author.Name+" <"+got.Author.Email+">\n" {
				t.Errorf("author %+v, git says %q", got.Author, by)
			}
		})
	}
}

// TestWiki_GitDir names the git directory git itself names, in a
// checkout and in a bare repository.
func TestWiki_GitDir(t *testing.T) {
	checkout := seeded(t, map[string]string{"a.md": "# A\n"})
	bare := gittest.InitBare(t)
	gittest.Git(t, bare, "fetch", "-q", checkout, "main:main")
	for _, dir := range []string{checkout, bare} {
		w := openWiki(t, dir, nil)
		want := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--absolute-git-dir"))
		got, err := filepath.Abs(w.GitDir())
		if err != nil || got != want {
			t.Errorf("GitDir() = %q, git rev-parse --absolute-git-dir: %q", w.GitDir(), want)
		}
		st, err := w.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st.GitDir != w.GitDir() {
			t.Errorf("Status().GitDir = %q, GitDir() = %q", st.GitDir, w.GitDir())
		}
	}
}

// TestWiki_Read_BodyStart finds where a note's body starts in what a read
// returns, whatever part of the note it returns.
func TestWiki_Read_BodyStart(t *testing.T) {
	ctx := context.Background()
	const fm = "---\ntitle: Plan\ntags: [x]\n---\n"
	dir := seeded(t, map[string]string{"plan.md": fm + "# Plan\n\nShip it.\n", "bare.md": "# Bare\n\nNo frontmatter.\n"})
	w := openWiki(t, dir, nil)
	tests := []struct {
		name string
		req  wiki.ReadRequest
		want string // Content[BodyStart:]
	}{
		{"the whole note", wiki.ReadRequest{Path: "plan"}, "# Plan\n\nShip it.\n"},
		{"no frontmatter", wiki.ReadRequest{Path: "bare"}, "# Bare\n\nNo frontmatter.\n"},
		{"a window in the frontmatter", wiki.ReadRequest{Path: "plan", Offset: 4, MaxChars: 6}, ""},
		{"a window across it", wiki.ReadRequest{Path: "plan", Offset: 10, MaxChars: 30}, "# Plan\n\nSh"},
		{"a window past it", wiki.ReadRequest{Path: "plan", Offset: len(fm) + 2, MaxChars: 100}, "Plan\n\nShip it.\n"},
		{"a section", wiki.ReadRequest{Path: "plan", Section: "Plan"}, "# Plan\n\nShip it.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.Read(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[res.BodyStart:]; got != tt.want {
				t.Errorf("Content[BodyStart:] = %q, want %q (content %q)", got, tt.want, res.Content)
			}
		})
	}
}

// TestWiki_Diff_Hunks checks that every file's hunks are its part of the
// diff's text, line for line, and count its lines.
func TestWiki_Diff_Hunks(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	for _, c := range gitLines(t, s.dir, "log", "--format=%H") {
		for _, ctxLines := range []int{0, -1, 1} {
			res, err := s.w.Diff(ctx, wiki.DiffRequest{To: c, Context: ctxLines})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, f := range res.Files {
				adds, dels := 0, 0
				for _, h := range f.Hunks {
					b.WriteString(h.Header() + "\n")
					for _, l := range h.Lines {
						b.WriteString(map[wiki.LineKind]string{wiki.LineContext: " ", wiki.LineAdded: "+", wiki.LineDeleted: "-"}[l.Kind] + l.Text + "\n")
						if l.NoNewline {
							b.WriteString("\\ No newline at end of file\n")
						}
						switch l.Kind {
						case wiki.LineAdded:
							adds++
						case wiki.LineDeleted:
							dels++
						}
					}
				}
				if !f.Binary && (adds != f.Additions || dels != f.Deletions) {
					t.Errorf("%s in %s: the hunks add %d and delete %d lines, the counts say %d and %d", f.File, c[:7], adds, dels, f.Additions, f.Deletions)
				}
			}
			var want strings.Builder
			in := false
			for _, line := range strings.SplitAfter(res.Diff, "\n") {
				switch {
				case strings.HasPrefix(line, "diff --git "):
					in = false
				case strings.HasPrefix(line, "@@ "):
					in = true
				}
				if in {
					want.WriteString(line)
				}
			}
			if b.String() != want.String() {
				t.Errorf("diff of %s (context %d): the hunks read\n%s\nthe diff's hunks\n%s", c[:7], ctxLines, b.String(), want.String())
			}
		}
	}
	t.Run("a dry run's changes", func(t *testing.T) {
		res, err := s.w.Edit(ctx, wiki.EditRequest{Path: "a", Edits: []note.Edit{{Op: note.OpReplace, Find: "three\n", Content: "3\n"}},
			Mutation: wiki.Mutation{DryRun: true}})
		if err != nil {
			t.Fatal(err)
		}
		want := []wiki.DiffHunk{{OldStart: 2, OldLines: 7, NewStart: 2, NewLines: 7, Lines: []wiki.DiffLine{
			{Kind: wiki.LineContext, Text: ""}, {Kind: wiki.LineContext, Text: "one"}, {Kind: wiki.LineContext, Text: "TWO"},
			{Kind: wiki.LineDeleted, Text: "three"}, {Kind: wiki.LineAdded, Text: "3"},
			{Kind: wiki.LineContext, Text: "FOUR"}, {Kind: wiki.LineContext, Text: "five"}, {Kind: wiki.LineContext, Text: "SIX"}}}}
		if len(res.Files) != 1 || res.Files[0].File != "a.md" || res.Files[0].Change != wiki.ChangeModified || !reflect.DeepEqual(res.Files[0].Hunks, want) {
			t.Errorf("the dry run's files: %+v\nwant the hunks %+v\ndiff:\n%s", res.Files, want, res.Diff)
		}
	})
}

// TestWiki_Blame_Client names the client and tool of each run's commit.
func TestWiki_Blame_Client(t *testing.T) {
	s := newScenario(t)
	res, err := s.w.Blame(context.Background(), wiki.BlameRequest{Path: "a"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Ranges {
		tool := strings.TrimSpace(gittest.Git(t, s.dir, "log", "-1", "--format=%(trailers:key=Wiki-Tool,valueonly)", r.Commit))
		client := strings.TrimSpace(gittest.Git(t, s.dir, "log", "-1", "--format=%(trailers:key=Wiki-Client,valueonly)", r.Commit))
		if r.Tool != tool || r.Client != client {
			t.Errorf("lines %d-%d by %s: tool %q, client %q; git: %q, %q", r.Start, r.End, r.Short, r.Tool, r.Client, tool, client)
		}
	}
}

// TestWiki_NoteFiles finds notes' files as a read does, without reading
// them, and Files lists a tree.
func TestWiki_NoteFiles(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n", "docs/B.markdown": "# B\n", "docs/pic.png": "png", ".obsidian/app.json": "{}"})
	w := openWiki(t, dir, nil)
	got, err := w.NoteFiles(ctx, "", []string{"a", "docs/b", "docs/pic", "missing", "../x"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a"].Path != "a.md" || got["docs/b"].Path != "docs/B.markdown" || got["docs/b"].Size != 4 {
		t.Errorf("NoteFiles = %+v", got)
	}
	seed := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "a", Content: "# A, longer\n", Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	old, err := w.NoteFiles(ctx, seed, []string{"a"})
	if err != nil || old["a"].Size != 4 {
		t.Errorf("NoteFiles at the seed = %+v, %v", old, err)
	}
	files, err := w.Files(ctx, wiki.FilesRequest{Dir: "docs/"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if !reflect.DeepEqual(paths, []string{"docs/B.markdown", "docs/pic.png"}) {
		t.Errorf("Files(docs/) = %v", paths)
	}
	if _, err := w.Files(ctx, wiki.FilesRequest{Version: "nope"}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("Files at an unknown version: %v", err)
	}
}

// TestWiki_Snapshot reads a commit's tree and the changes between two
// commits through the wiki, as sync does.
func TestWiki_Snapshot(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	seed := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	w := openWiki(t, dir, nil)
	res, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "# B\n"})
	if err != nil {
		t.Fatal(err)
	}
	head, err := w.Head(ctx)
	if err != nil || head.Commit != res.Commit || head.Branch != "refs/heads/main" {
		t.Fatalf("Head = %+v, %v", head, err)
	}
	changes, err := w.Changes(ctx, seed, head.Commit)
	if err != nil || len(changes) != 1 || changes[0].Path != "b.md" || changes[0].OldBlob != "" {
		t.Errorf("Changes = %+v, %v", changes, err)
	}
	snap, err := w.Snapshot(ctx, seed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := snap.Stat(ctx, "b.md"); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Errorf("b.md in the seed: %v", err)
	}
	if ok, err := w.IsAncestor(ctx, seed, head.Commit); !ok || err != nil {
		t.Errorf("IsAncestor = %v, %v", ok, err)
	}
	if base, err := w.MergeBase(ctx, seed, head.Commit); base != seed || err != nil {
		t.Errorf("MergeBase = %q, %v", base, err)
	}
}

// TestWiki_UserIdentity names the person git names for the repository.
func TestWiki_UserIdentity(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "# A\n"})
	gittest.Git(t, dir, "config", "user.name", "Pat Person")
	gittest.Git(t, dir, "config", "user.email", "pat@example.com")
	w := openWiki(t, dir, nil)
	hermetic := func(k string) string { // no system or global configuration
		if k == "GIT_CONFIG_NOSYSTEM" {
			return "1"
		}
		return ""
	}
	if id, err := w.UserIdentity(hermetic); err != nil || id != (wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}) {
		t.Errorf("UserIdentity = %+v, %v", id, err)
	}
	gittest.Git(t, dir, "config", "--unset", "user.email")
	if id, _ := w.UserIdentity(hermetic); id != (wiki.Identity{}) {
		t.Errorf("UserIdentity without an email = %+v, want nobody", id)
	}
}
