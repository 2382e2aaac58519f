package wiki_test

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/wiki"
)

// namedRepo returns a checkout where notes/Old Name, whose first heading is
// its file name, has 60 linking notes in four folders, each linking to it
// by name and by path in eight forms.
func namedRepo(tb testing.TB) (string, map[string]string) {
	tb.Helper()
	files := map[string]string{
		"notes/Old Name.md": "# Old Name\n\n" + prose + "\n## Section\n\nA block. ^blk\n",
		"index.md":          "# Home\n",
	}
	folders := []string{"", "notes/", "other/", "other/deep/"}
	for i := range 60 {
		p := fmt.Sprintf("%slinker %02d", folders[i%4], i)
		rel := relTo(p, "notes/Old Name.md")
		files[p+".md"] = fmt.Sprintf("# Linker %d\n\n", i) +
			"[[Old Name]], [[Old Name|label]], [[Old Name#Section]], [[Old Name#^blk]],\n" +
			"![[Old Name]], [[notes/Old Name]], [[Old Name.md]],\n" +
			"[md](" + strings.ReplaceAll(rel, " ", "%20") + ") and [md](<" + rel + ">).\n"
	}
	return seeded(tb, files), files
}

// TestWiki_MoveRenamesEveryNameLink is the rename of a note whose first
// heading is its file name: the links that named the file must name the
// new one, though the old name still reaches the note by its title in the
// wiki resolution.
func TestWiki_MoveRenamesEveryNameLink(t *testing.T) {
	ctx := context.Background()
	for _, r := range []wiki.LinkResolution{wiki.ResolveWiki, wiki.ResolveObsidian} {
		t.Run(string(r), func(t *testing.T) {
			dir, files := namedRepo(t)
			g := graph.NewResolving(r)
			w := openWikiWith(t, dir, nil, io.Discard, g)
			res, err := w.Move(ctx, wiki.MoveRequest{Path: "notes/Old Name", NewPath: "notes/New Name", Mutation: wiki.Mutation{Caller: cli}})
			if err != nil {
				t.Fatal(err)
			}
			checkRepo(t, dir)
			// git grep exits 1 when nothing matches
			out, err := exec.Command("git", "-C", dir, "grep", "-n", "-E", `\[\[(notes/)?Old Name|Old%20Name|Old Name\.md`, "HEAD").CombinedOutput()
			if err == nil || len(out) > 0 {
				t.Errorf("links still name the old file (%v):\n%s", err, firstLines(string(out), 10))
			}
			if len(res.LinksUpdated) != 60 || len(res.BrokenLinks) != 0 {
				t.Errorf("%d notes relinked and %d left broken, want 60 and 0", len(res.LinksUpdated), len(res.BrokenLinks))
			}
			after := gitGraphResolving(t, dir, r)
			if b := after.BrokenLinks(""); len(b) != 0 {
				t.Errorf("%d broken links after the move, the first %+v", len(b), b[0])
			}
			if in := after.Backlinks("notes/New Name"); len(in) != 60 {
				t.Errorf("%d notes link to notes/New Name, want 60", len(in))
			}
			now := gitFiles(t, dir)
			for f, old := range files {
				nf := strings.Replace(f, "Old Name", "New Name", 1)
				linkTargetsOnly(t, nf, old, now[nf])
			}
		})
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestWiki_MoveFolderRenamesPathLinks moves the folder of notes/Old Name:
// the links that named it by a path through the old folder name the new
// one, in both resolutions.
func TestWiki_MoveFolderRenamesPathLinks(t *testing.T) {
	ctx := context.Background()
	for _, r := range []wiki.LinkResolution{wiki.ResolveWiki, wiki.ResolveObsidian} {
		t.Run(string(r), func(t *testing.T) {
			dir, _ := namedRepo(t)
			w := openWikiWith(t, dir, nil, io.Discard, graph.NewResolving(r))
			before := gitGraphResolving(t, dir, r)
			res, err := w.Move(ctx, wiki.MoveRequest{Path: "notes/", NewPath: "archive/2024", Mutation: wiki.Mutation{Caller: cli}})
			if err != nil {
				t.Fatal(err)
			}
			checkRepo(t, dir)
			out, err := exec.Command("git", "-C", dir, "grep", "-n", "-E", `\[\[notes/|[(<.]/?notes/`, "HEAD").CombinedOutput()
			if err == nil || len(out) > 0 {
				t.Errorf("links still name the old folder (%v):\n%s", err, firstLines(string(out), 10))
			}
			if len(res.BrokenLinks) != 0 {
				t.Errorf("%d notes left with broken links", len(res.BrokenLinks))
			}
			after := gitGraphResolving(t, dir, r)
			if b := after.BrokenLinks(""); len(b) != 0 {
				t.Errorf("%d broken links after the move, the first %+v", len(b), b[0])
			}
			if in, was := after.Backlinks("archive/2024/Old Name"), before.Backlinks("notes/Old Name"); len(in) != len(was) {
				t.Errorf("%d notes link to archive/2024/Old Name, %d linked to notes/Old Name", len(in), len(was))
			}
		})
	}
}
