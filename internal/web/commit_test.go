package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// longLine is a line of prose too long for any screen.
var longLine = strings.Repeat("A sentence of prose that goes on and on without a break, ", 12) + "and ends with the changed word here."

// renameWiki is a wiki whose last commit moves the folder projects/ with
// its 20 notes to archive/, rewriting the links of 3 notes that name them,
// and whose commit before it edits a long line.
func renameWiki(t *testing.T) (w *wiki.Wiki, dir, long, move string) {
	t.Helper()
	ctx := context.Background()
	dir = gittest.Init(t)
	files := map[string]string{"prose.md": "# Prose\n\n" + longLine + "\n"}
	for i := 1; i <= 20; i++ {
		files[fmt.Sprintf("projects/p%02d.md", i)] = fmt.Sprintf("# Project %d\n\nThe project's notes.\n", i)
	}
	for i := 1; i <= 3; i++ {
		files[fmt.Sprintf("hub%d.md", i)] = fmt.Sprintf("# Hub %d\n\nSee [[projects/p%02d]] and [[projects/p%02d|the next]].\n", i, i, i+1)
	}
	files["hub3.md"] = "# Hub 3\n\nSee [[Projects/P03]], written in capitals.\n" // rewritten all the same
	gittest.Commit(t, dir, "start", files)
	w = openWiki(t, dir)
	claude := wiki.Caller{Client: "claude-code/2.1", Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}, Tool: "write_note"}
	if _, err := w.Write(ctx, wiki.WriteRequest{Path: "prose", Content: "# Prose\n\n" + strings.Replace(longLine, "changed word", "altered word", 1) + "\n", Overwrite: true,
		Mutation: wiki.Mutation{Caller: claude}}); err != nil {
		t.Fatal(err)
	}
	long = head(t, dir)
	claude.Tool = "move_note"
	if _, err := w.Move(ctx, wiki.MoveRequest{Path: "projects/", NewPath: "archive", Mutation: wiki.Mutation{Caller: claude}}); err != nil {
		t.Fatal(err)
	}
	return w, dir, long, head(t, dir)
}

// TestCommitPage_Files checks a commit's list of files against git show:
// a folder's move is 20 lines "renamed a → b" and no diff of them, the
// notes whose links it rewrote are counted apart, and every other file
// links to its diff.
func TestCommitPage_Files(t *testing.T) {
	w, dir, long, move := renameWiki(t)
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()

	t.Run("rename", func(t *testing.T) {
		status, page := get(t, srv, "/commit/"+move)
		if status != http.StatusOK {
			t.Fatalf("%d\n%s", status, page)
		}
		var renames, modified int
		for _, l := range strings.Split(strings.TrimSpace(gittest.Git(t, dir, "show", "--format=", "--name-status", "-M", move)), "\n") {
			f := strings.Fields(l)
			switch {
			case strings.HasPrefix(f[0], "R"):
				renames++
				// The renamed note links to its page, under its new name.
				want := `<li class="renamed"><span class="kind">renamed</span> ` + f[1] + ` → <a href="/note/` + strings.TrimSuffix(f[2], ".md") + `">` + f[2] + `</a>`
				if !strings.Contains(page, want) {
					t.Errorf("the list lacks %q", want)
				}
			case f[0] == "M":
				modified++
			}
		}
		if renames != 20 || modified != 3 {
			t.Fatalf("git show: %d renames, %d modified", renames, modified)
		}
		if n := strings.Count(page, `<li class="renamed">`); n != renames {
			t.Errorf("%d renames listed, git has %d", n, renames)
		}
		if strings.Contains(page, "a/projects/") || strings.Contains(page, "rename from") {
			t.Errorf("a rename shows as a diff header:\n%s", page)
		}
		if want := fmt.Sprintf("Links rewritten in %d notes", modified); !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
		if n := strings.Count(page, `<pre class="diff">`); n != modified {
			t.Errorf("%d diffs, want one for each of the %d link rewrites", n, modified)
		}
		rewrites := regexp.MustCompile(`(?s)<details class="rewrites">.*</details>`).FindString(page)
		if !strings.Contains(rewrites, `<a href="#file-`) || !strings.Contains(rewrites, "archive</mark>/p01]]") {
			t.Errorf("the rewrites do not list their notes and diffs:\n%s", rewrites)
		}
	})

	t.Run("edit", func(t *testing.T) {
		_, page := get(t, srv, "/commit/"+long)
		if !strings.Contains(page, `<li class="modified"><span class="kind">modified</span> <a href="#file-1">prose.md</a>`) ||
			!strings.Contains(page, `<h3 class="file" id="file-1">prose.md`) {
			t.Errorf("the edit's file does not link to its diff:\n%s", page)
		}
		if strings.Contains(page, "Links rewritten") {
			t.Errorf("an edit without renames has link rewrites:\n%s", page)
		}
	})
}
