package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestBrowser_Diffs looks at the pages of a folder's move, a long line's
// edit, a deleted note, a blame and a search at a desktop's and a phone's
// width: none scrolls sideways, the changed word of the long line is in
// view, and each is saved as a screenshot.
func TestBrowser_Diffs(t *testing.T) {
	ctx := browserContext(t)
	w, _, long, move := renameWiki(t)
	codex := wiki.Caller{Client: "codex/0.9", Author: wiki.Identity{Name: "codex", Email: "codex@mcp.wikid"}, Tool: "delete_note"}
	if _, err := w.Delete(context.Background(), wiki.DeleteRequest{Path: "hub3", Confirm: true, Mutation: wiki.Mutation{Caller: codex}}); err != nil {
		t.Fatal(err)
	}
	if err := w.CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	shots := screenshots(t)

	pages := []struct{ name, path string }{
		{"commit-rename", "/commit/" + move},
		{"commit-long-line", "/commit/" + long},
		{"note-deleted", "/note/hub3"},
		{"note-blame", "/note/prose?blame=1#blame"},
		{"search", "/search?q=project"},
	}
	for _, width := range []int64{1280, 390} {
		for _, p := range pages {
			name := fmt.Sprintf("%s-%d", p.name, width)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+p.path)); err != nil {
				t.Fatal(err)
			}
			if p.name == "commit-rename" {
				// The link rewrites open, as a reviewer would open them.
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector("details.rewrites").open = true)`)); err != nil {
					t.Fatal(err)
				}
			}
			overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1 ||
				[...document.querySelectorAll("pre")].some(e => e.scrollWidth > e.clientWidth + 1)`))
			if err != nil {
				t.Fatal(err)
			}
			if overflow {
				t.Errorf("%s scrolls sideways at %d px", p.path, width)
			}
			if p.name == "commit-long-line" {
				// The changed word, at the end of a long line, is within the
				// width of the page.
				right, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`Math.max(...[...document.querySelectorAll("pre.diff mark")].map(m => m.getBoundingClientRect().right))`))
				if err != nil || right > float64(width) {
					t.Errorf("at %d px the changed word ends at %v px (%v)", width, right, err)
				}
			}
			buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("screenshots in %s", shots)
}
