package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// TestBrowser_Proposals looks at the proposals pages, an assistant's
// commit with a 260-character line in its message and a note with a long
// code line, at a desktop's and a phone's width: none scrolls sideways
// (a long line wraps, or scrolls inside its own box), and each is saved
// as a screenshot.
func TestBrowser_Proposals(t *testing.T) {
	ctx := browserContext(t)
	w, _, id := proposalWiki(t)
	bg := context.Background()
	why := "Reworded the launch plan " + strings.Repeat("because the dates moved and the owners asked for it, ", 5)
	claude := wiki.Caller{Client: "claude-code/2.1", Author: wiki.Identity{Name: "claude-code", Email: "claude-code@mcp.wikid"}}
	code := "# Code\n\n```\n" + strings.Repeat("very_long_identifier_", 20) + "= 1\n```\n"
	res, err := w.Write(bg, wiki.WriteRequest{Path: "code", Content: code, Mutation: wiki.Mutation{Caller: claude, Message: why}})
	if err != nil {
		t.Fatal(err)
	}
	if len(why) < 260 {
		t.Fatalf("the message line is %d characters", len(why))
	}
	if err := w.CatchUp(bg); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	shots := screenshots(t)
	pages := []struct{ name, path string }{
		{"proposals", "/proposals"},
		{"proposal", "/proposals/" + id},
		{"commit-long-message", "/commit/" + res.Commit},
		{"note-long-code", "/note/code"},
	}
	for _, width := range []int64{1280, 390} {
		for _, p := range pages {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+p.path)); err != nil {
				t.Fatal(err)
			}
			wide, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`))
			if err != nil {
				t.Fatal(err)
			}
			if wide > float64(width)+1 {
				t.Errorf("%s is %v px wide at %d px", p.path, wide, width)
			}
			buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", p.name, width)), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("screenshots in %s", shots)
}
