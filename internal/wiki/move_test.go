package wiki_test

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// relTo returns the relative path from the folder of note `from` to file.
func relTo(from, file string) string {
	dir := path.Dir(from)
	if dir == "." {
		return file
	}
	up := strings.Repeat("../", strings.Count(dir, "/")+1)
	return up + file
}

// everyForm returns a line for each form a link to the note at notePath
// (file in the repository, title, alias) can take, from a note at from.
func everyForm(from, notePath, title, alias string) string {
	name := path.Base(notePath)
	rel := relTo(from, notePath+".md")
	forms := []string{
		"[[" + name + "]]", "[[" + name + "|a label]]", "[[" + name + "#Heading]]", "[[" + name + "#Heading|label]]",
		"![[" + name + "]]", "[[" + notePath + "]]", "[[/" + notePath + "]]", "[[" + title + "]]", "[[" + alias + "]]",
		"[[" + name + ".md]]", "[md](" + rel + ")", "[md](<" + rel + ">)", "[md](" + rel + "#heading \"title\")",
	}
	var b strings.Builder
	for i, f := range forms {
		fmt.Fprintf(&b, "Form %d: %s, then text.\n", i, f)
	}
	return b.String()
}

// linkTargetsOnly fails unless new differs from old only inside the target
// text of links: both parse to the same number of links, and every byte
// outside the links' targets is the same.
func linkTargetsOnly(tb testing.TB, file, old, new string) {
	tb.Helper()
	a, b := note.Parse("x", []byte(old)), note.Parse("x", []byte(new))
	if len(a.Links) != len(b.Links) {
		tb.Errorf("%s: %d links before, %d after", file, len(a.Links), len(b.Links))
		return
	}
	pa, pb := 0, 0
	for i := range a.Links {
		la, lb := a.Links[i], b.Links[i]
		if old[pa:la.TargetStart] != new[pb:lb.TargetStart] {
			tb.Errorf("%s: text before link %d changed: %q -> %q", file, i, old[pa:la.TargetStart], new[pb:lb.TargetStart])
		}
		pa, pb = la.TargetEnd, lb.TargetEnd
	}
	if old[pa:] != new[pb:] {
		tb.Errorf("%s: text after the last link changed", file)
	}
}

// checkLinksFollow checks that every link that resolved before a move
// resolves after it to the same note at its new path.
func checkLinksFollow(tb testing.TB, before, after *graph.Graph, paths []string, moved map[string]string) {
	tb.Helper()
	newPath := func(p string) string {
		if to, ok := moved[p]; ok {
			return to
		}
		return p
	}
	for _, p := range paths {
		was, now := before.Outlinks(p), after.Outlinks(newPath(p))
		if len(was) != len(now) {
			tb.Errorf("%s: %d links before, %d after", p, len(was), len(now))
			continue
		}
		for i := range was {
			if was[i].Path != "" && now[i].Path != newPath(was[i].Path) {
				tb.Errorf("%s line %d: %q resolves to %q, want %q", newPath(p), now[i].Line, now[i].Target, now[i].Path, newPath(was[i].Path))
			}
			if was[i].Broken == "" && now[i].Broken != "" {
				tb.Errorf("%s line %d: %q is broken after the move: %s", newPath(p), now[i].Line, now[i].Target, now[i].Broken)
			}
		}
	}
}

// prose is a paragraph of text without links.
const prose = "A note is mostly prose: what was decided, by whom, and why it matters for\n" +
	"the next person who reads it. Links are a small part of the text.\n"

// ownProse is a paragraph of text of its own for each n.
func ownProse(n int) string {
	var b strings.Builder
	for line := range 4 {
		fmt.Fprintf(&b, "Paragraph %d, line %d: words that only note %d uses, %x and %o.\n", n, line, n, n*7919+line, n*104729+line)
	}
	return b.String()
}

// linkedRepo returns a checkout with topics/target linked in every form
// from 20 notes in four folders.
func linkedRepo(tb testing.TB) (string, map[string]string) {
	tb.Helper()
	files := map[string]string{
		"topics/target.md": "---\ntitle: Target Title\naliases: [Target Alias]\n---\n# Target\n\n" + prose + "\n## Heading\n\n" +
			"See [sibling](sibling.md), [[sibling]]\nand [home](../index.md).\n\n" + prose,
		"topics/sibling.md": "# Sibling\n\nBack to [[target]].\n",
		"index.md":          "# Home\n",
	}
	folders := []string{"", "topics/", "other/", "other/deep/"}
	for i := range 20 {
		p := fmt.Sprintf("%slinker-%02d", folders[i%4], i)
		files[p+".md"] = fmt.Sprintf("# Linker %d\n\nSome text first.\n\n", i) +
			everyForm(p, "topics/target", "Target Title", "Target Alias") + "\nAnd [[sibling]] stays.\n"
	}
	return seeded(tb, files), files
}

func TestWiki_MoveNote(t *testing.T) {
	ctx := context.Background()
	moved := map[string]string{"topics/target": "archive/2024/renamed"}
	t.Run("update links", func(t *testing.T) {
		dir, files := linkedRepo(t)
		w, _ := openGraphWiki(t, dir)
		before := gitGraph(t, dir)
		commits := commitCount(t, dir)
		res, err := w.Move(ctx, wiki.MoveRequest{Path: "topics/target", NewPath: "archive/2024/renamed", Mutation: wiki.Mutation{Caller: cli, Message: "file it away"}})
		if err != nil {
			t.Fatal(err)
		}
		checkRepo(t, dir)
		if got := commitCount(t, dir); got != commits+1 {
			t.Fatalf("%d commits after the move, want %d", got, commits+1)
		}
		c := lastCommit(t, dir)
		if c.subject != "move: topics/target -> archive/2024/renamed" || c.trailers["Wiki-Tool"] != "move" || c.sha != res.Commit {
			t.Errorf("commit %+v", c)
		}
		status := gittest.Git(t, dir, "show", "-M", "--format=", "--name-status", "HEAD")
		if !strings.Contains(status, "\ttopics/target.md\tarchive/2024/renamed.md") || !strings.HasPrefix(status, "R") && !strings.Contains(status, "\nR") {
			t.Errorf("git does not see a rename:\n%s", status)
		}
		follow := gittest.Git(t, dir, "log", "--follow", "--format=%s", "--", "archive/2024/renamed.md")
		if follow != "move: topics/target -> archive/2024/renamed\nseed\n" {
			t.Errorf("git log --follow:\n%s", follow)
		}
		after := gitGraph(t, dir)
		checkLinksFollow(t, before, after, notePaths(files), moved)
		now := gitFiles(t, dir)
		for f, old := range files {
			nf := f
			if f == "topics/target.md" {
				nf = "archive/2024/renamed.md"
			}
			linkTargetsOnly(t, nf, old, now[nf])
		}
		// 20 linkers, the sibling and the moved note itself
		if len(res.LinksUpdated) != 22 || len(res.BrokenLinks) != 0 {
			t.Errorf("%d notes relinked and %d left broken, want 22 and 0", len(res.LinksUpdated), len(res.BrokenLinks))
		}
		// title and alias links still work as written; so does a bare name
		// nowhere, since the name changed
		want := []string{"renamed", "renamed", "renamed", "renamed", "renamed", "archive/2024/renamed",
			"/archive/2024/renamed", "renamed.md", "../archive/2024/renamed.md", "../archive/2024/renamed.md", "../archive/2024/renamed.md"}
		var got []string
		for _, l := range res.LinksUpdated[slices.IndexFunc(res.LinksUpdated, func(n wiki.LinkedNote) bool { return n.Path == "other/linker-02" })].Links {
			got = append(got, l.New)
		}
		if !slices.Equal(got, want) {
			t.Errorf("other/linker-02 relinked to\n%q\nwant\n%q", got, want)
		}
		if rn, err := w.Read(ctx, wiki.ReadRequest{Path: "archive/2024/renamed"}); err != nil || !strings.Contains(rn.Content, "[sibling](../../topics/sibling.md)") || !strings.Contains(rn.Content, "[home](../../index.md)") {
			t.Errorf("moved note reads %v: %q", err, rn.Content)
		}
		if len(res.Changes) != 22 || res.Changes[0].Action != wiki.ActionMoved || res.Changes[0].From != "topics/target" {
			t.Errorf("changes: %+v", res.Changes[:2])
		}
	})
	t.Run("leave links", func(t *testing.T) {
		dir, files := linkedRepo(t)
		w, _ := openGraphWiki(t, dir)
		res, err := w.Move(ctx, wiki.MoveRequest{Path: "topics/target", NewPath: "archive/2024/renamed", LeaveLinks: true})
		if err != nil {
			t.Fatal(err)
		}
		checkRepo(t, dir)
		if st := gittest.Git(t, dir, "show", "-M", "--format=", "--name-status", "HEAD"); st != "R100\ttopics/target.md\tarchive/2024/renamed.md\n" {
			t.Errorf("git show:\n%s", st)
		}
		now := gitFiles(t, dir)
		for f, old := range files {
			if f != "topics/target.md" && now[f] != old {
				t.Errorf("%s changed", f)
			}
		}
		// every linker and the sibling still name the old path (title and
		// alias links aside), and so do the moved note's relative links
		if len(res.BrokenLinks) != 22 || len(res.LinksUpdated) != 0 {
			t.Fatalf("%d notes left with broken links, %d relinked; want 22 and 0", len(res.BrokenLinks), len(res.LinksUpdated))
		}
		var olds []string
		for _, l := range res.BrokenLinks[slices.IndexFunc(res.BrokenLinks, func(n wiki.LinkedNote) bool { return n.Path == "linker-00" })].Links {
			olds = append(olds, l.Old)
		}
		want := []string{"target", "target", "target", "target", "target", "topics/target", "/topics/target", "target.md",
			"topics/target.md", "topics/target.md", "topics/target.md"}
		if !slices.Equal(olds, want) {
			t.Errorf("linker-00 left %q, want %q", olds, want)
		}
		if !strings.Contains(strings.Join(res.Warnings, "\n"), "22 notes have links that still name the old paths") {
			t.Errorf("warnings: %q", res.Warnings)
		}
	})
}

func TestWiki_MoveDryRun(t *testing.T) {
	ctx := context.Background()
	dir, _ := linkedRepo(t)
	w, _ := openGraphWiki(t, dir)
	base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	stateBefore := captureState(t, dir)
	req := wiki.MoveRequest{Path: "topics/target", NewPath: "archive/2024/renamed", Mutation: wiki.Mutation{DryRun: true}}
	dry, err := w.Move(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	stateBefore.assertEqual(t, captureState(t, dir))
	if dry.Commit != "" || dry.Diff == "" {
		t.Fatalf("dry run: commit %q, diff %d bytes", dry.Commit, len(dry.Diff))
	}
	if !strings.Contains(dry.Diff, "rename from topics/target.md\nrename to archive/2024/renamed.md\n") {
		t.Errorf("dry run diff has no rename:\n%.600s", dry.Diff)
	}
	req.DryRun = false
	real, err := w.Move(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// the dry run's diff, applied to the base with git, gives the commit's
	// tree
	clone := t.TempDir()
	gittest.Git(t, clone, "clone", "-q", dir, ".")
	gittest.Git(t, clone, "checkout", "-q", base)
	patch := filepath.Join(t.TempDir(), "move.patch")
	if err := os.WriteFile(patch, []byte(dry.Diff), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, clone, "apply", "--index", patch)
	if got, want := strings.TrimSpace(gittest.Git(t, clone, "write-tree")), strings.TrimSpace(gittest.Git(t, dir, "rev-parse", real.Commit+"^{tree}")); got != want {
		t.Errorf("dry run diff gives tree %s, the move committed %s", got, want)
	}
	dry.DryRun, dry.Diff, dry.Commit, real.Commit, real.Warnings, dry.Warnings = false, "", "", "", nil, nil
	if !slices.EqualFunc(dry.Changes, real.Changes, func(a, b wiki.NoteChange) bool { return a == b }) || dry.Summary != real.Summary {
		t.Errorf("dry run changes %+v\nreal %+v", dry.Changes, real.Changes)
	}
}

func TestWiki_MoveFolder(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"index.md": "# Home\n\n[[proj/note-00]] and [[proj]]\n"}
	var inside []string
	for i := range 50 {
		p := fmt.Sprintf("proj/note-%02d", i)
		if i%3 == 0 {
			p = fmt.Sprintf("proj/sub/note-%02d", i)
		}
		inside = append(inside, p)
	}
	for i, p := range inside {
		next, prev := inside[(i+1)%len(inside)], inside[(i+len(inside)-1)%len(inside)]
		files[p+".md"] = fmt.Sprintf("# Note %d\n\n%s\n[[%s]] [next](%s) [[%s]] [[Note %d]]\n\n%s\nUp to [home](%s).\n",
			i, ownProse(i), path.Base(next), relTo(p, next+".md"), prev, (i+7)%50, ownProse(i+100), relTo(p, "index.md"))
	}
	for i := range 10 {
		p := fmt.Sprintf("outside/o-%d", i)
		files[p+".md"] = everyForm(p, inside[i*5], fmt.Sprintf("Note %d", i*5), "none") + "[[index]]\n"
	}
	dir := seeded(t, files)
	w, _ := openGraphWiki(t, dir)
	before := gitGraph(t, dir)
	commits := commitCount(t, dir)

	res, err := w.Move(ctx, wiki.MoveRequest{Path: "proj/", NewPath: "archive/proj-2023"})
	if err != nil {
		t.Fatal(err)
	}
	checkRepo(t, dir)
	if got := commitCount(t, dir); got != commits+1 {
		t.Fatalf("%d commits, want %d", got, commits+1)
	}
	if s := lastCommit(t, dir).subject; s != "move: proj/ -> archive/proj-2023/" {
		t.Errorf("subject %q", s)
	}
	moved := make(map[string]string)
	for _, p := range inside {
		moved[p] = "archive/proj-2023/" + strings.TrimPrefix(p, "proj/")
	}
	renames := 0
	for _, line := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "show", "-M", "--format=", "--name-status", "HEAD")), "\n") {
		f := strings.Split(line, "\t")
		if strings.HasPrefix(f[0], "R") {
			renames++
			if p, _, _ := note.SplitFileName(f[1]); moved[p]+".md" != f[2] {
				t.Errorf("git renamed %s to %s", f[1], f[2])
			}
		}
	}
	if renames != 50 {
		t.Errorf("git sees %d renames, want 50", renames)
	}
	follow := gittest.Git(t, dir, "log", "--follow", "--format=%s", "--", "archive/proj-2023/sub/note-03.md")
	if follow != "move: proj/ -> archive/proj-2023/\nseed\n" {
		t.Errorf("git log --follow:\n%s", follow)
	}
	after := gitGraph(t, dir)
	checkLinksFollow(t, before, after, notePaths(files), moved)
	now := gitFiles(t, dir)
	for f, old := range files {
		nf := f
		if p, ext, _ := note.SplitFileName(f); moved[p] != "" {
			nf = moved[p] + ext
		}
		linkTargetsOnly(t, nf, old, now[nf])
	}
	if len(res.BrokenLinks) != 0 {
		t.Errorf("broken links: %+v", res.BrokenLinks)
	}
	// [[proj]] named nothing before, and names nothing after
	if out := after.Outlinks("index"); out[1].Broken == "" {
		t.Errorf("[[proj]] resolves to %s", out[1].Path)
	}
}

func TestWiki_MoveErrors(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"a.md": "# A\n", "b.md": "# B\n", "Dir/c.md": "# C\n", "d/e.md": "# E\n", "other.markdown": "# O\n",
	})
	w, _ := openGraphWiki(t, dir)
	tests := []struct {
		name string
		req  wiki.MoveRequest
		code wiki.Code
	}{
		{"onto a note", wiki.MoveRequest{Path: "a", NewPath: "b"}, wiki.CodeAlreadyExists},
		{"onto a note of another case", wiki.MoveRequest{Path: "a", NewPath: "B"}, wiki.CodeAlreadyExists},
		{"onto a note of another extension", wiki.MoveRequest{Path: "a", NewPath: "other"}, wiki.CodeAlreadyExists},
		{"folder onto a note", wiki.MoveRequest{Path: "d/", NewPath: "Dir"}, wiki.CodeInvalidParams},
		{"nothing there", wiki.MoveRequest{Path: "nope", NewPath: "x"}, wiki.CodeNotFound},
		{"no new path", wiki.MoveRequest{Path: "a", NewPath: " "}, wiki.CodeInvalidParams},
		{"same path", wiki.MoveRequest{Path: "a", NewPath: "a.md"}, wiki.CodeInvalidParams},
		{"bad new path", wiki.MoveRequest{Path: "a", NewPath: "../x"}, wiki.CodeInvalidPath},
		{"stale version", wiki.MoveRequest{Path: "a", NewPath: "x", Mutation: wiki.Mutation{ExpectedVersion: "0123456789"}}, wiki.CodeConflict},
		{"version of a folder", wiki.MoveRequest{Path: "d/", NewPath: "x", Mutation: wiki.Mutation{ExpectedVersion: "0123456789"}}, wiki.CodeInvalidParams},
		{"the root", wiki.MoveRequest{Path: "/", NewPath: "x"}, wiki.CodeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := captureState(t, dir)
			_, err := w.Move(ctx, tt.req)
			if tt.name == "folder onto a note" {
				// d/e -> Dir/e is free: the folders merge
				if err != nil {
					t.Fatalf("merge folders: %v", err)
				}
				gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~1")
				return
			}
			wantCode(t, err, tt.code)
			st.assertEqual(t, captureState(t, dir))
		})
	}
	t.Run("local changes", func(t *testing.T) {
		gittest.WriteFiles(t, dir, map[string]string{"a.md": "# A, edited by hand\n"})
		defer gittest.Git(t, dir, "checkout", "--", "a.md")
		_, err := w.Move(ctx, wiki.MoveRequest{Path: "a", NewPath: "x"})
		wantCode(t, err, wiki.CodeLocalChanges)
	})
	t.Run("case only", func(t *testing.T) {
		res, err := w.Move(ctx, wiki.MoveRequest{Path: "a", NewPath: "A"})
		if err != nil {
			t.Fatal(err)
		}
		checkRepo(t, dir)
		if got := gittest.Git(t, dir, "ls-tree", "--name-only", res.Commit, "A.md"); got != "A.md\n" {
			t.Errorf("ls-tree: %q", got)
		}
	})
}

func TestWiki_DeleteListsBrokenLinks(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"a/plan.md": "# Plan\n", "b/plan.md": "# Other plan\n",
		"a/x.md": "[[plan]] and [[a/plan]]\n", "c/y.md": "[p](../a/plan.md)\n\n[[Plan]]\n", "z.md": "[[b/plan]]\n",
	})
	w, _ := openGraphWiki(t, dir)
	res, err := w.Delete(ctx, wiki.DeleteRequest{Path: "a/plan", Confirm: true})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(res.BrokenLinks)
	// [[plan]] from a/x falls back to b/plan; the title link in c/y too
	want := "[{a/x [{1 plan  b/plan} {1 a/plan  }]} {c/y [{1 ../a/plan.md  } {3 Plan  b/plan}]}]"
	if got != want {
		t.Errorf("BrokenLinks = %s\nwant %s", got, want)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "2 notes have links that named the deleted note: a/x (2 links), c/y (2 links)") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
