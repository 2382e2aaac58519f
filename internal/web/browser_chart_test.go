package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
)

// chartWiki is a wiki of a month's changes, a few a day, by two
// assistants and people, in seven folders; its note "projects/launch"
// links to ten notes and ten link to it.
func chartWiki(t *testing.T) string {
	t.Helper()
	dir := gittest.Init(t)
	rng := rand.New(rand.NewPCG(1, 2))
	folders := []string{"projects", "projects", "projects", "areas", "areas", "journal", "people", "reading", "howto", "archive"}
	commit := func(when time.Time, msg string, files map[string]string) {
		t.Helper()
		gittest.WriteFiles(t, dir, files)
		gittest.Git(t, dir, "add", "-A")
		cmd := exec.Command("git", "commit", "-q", "-m", msg)
		cmd.Dir = dir
		date := when.Format(time.RFC3339)
		cmd.Env = append(gittest.Env(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
	}
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	hub := "---\ntitle: Launch plan for the June beta\n---\n# Launch plan\n\n"
	for i := range 10 {
		hub += fmt.Sprintf("- [[step-%d]]\n", i)
	}
	files := map[string]string{"projects/launch.md": hub}
	for i := range 10 {
		files[fmt.Sprintf("projects/step-%d.md", i)] = fmt.Sprintf("# Step %d of the launch\n", i)
		files[fmt.Sprintf("journal/2026-02-%02d.md", i+10)] = "# Journal\n\nWorked on [[launch]].\n"
	}
	commit(start.AddDate(0, 0, -3), "start", files)
	for d := range 30 {
		for k := range rng.IntN(6) {
			f := folders[rng.IntN(len(folders))]
			msg := "edit " + f
			switch rng.IntN(5) {
			case 0, 1, 2:
				msg += "\n\nWiki-Client: claude-code/2.1\nWiki-Tool: edit_note"
			case 3:
				msg += "\n\nWiki-Client: codex/0.9\nWiki-Tool: write_note"
			}
			p := fmt.Sprintf("%s/note-%d.md", f, rng.IntN(6))
			commit(start.AddDate(0, 0, d).Add(time.Duration(k)*time.Hour), msg, map[string]string{p: fmt.Sprintf("# Note\n\nVersion %d.%d\n", d, k)})
		}
	}
	return dir
}

// TestBrowser_Chart looks at the changes page's chart and a note's link
// map at a desktop's and a phone's width: each SVG fits the viewport, its
// text is at least 10 px, and each is saved as a screenshot.
func TestBrowser_Chart(t *testing.T) {
	ctx := browserContext(t)
	w := openWiki(t, chartWiki(t))
	srv := httptest.NewServer(web.New(w, web.Options{}))
	defer srv.Close()
	shots := screenshots(t)
	for _, width := range []int64{1280, 390} {
		for _, p := range []struct{ name, path string }{{"changes-chart", "/"}, {"note-map", "/note/projects/launch"}} {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+p.path)); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
				const svgs = [...document.querySelectorAll("section.chart svg")];
				const bad = svgs.filter(s => { const r = s.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth || r.width < 200; });
				const small = [...document.querySelectorAll("section.chart svg text")].map(e => e.getBoundingClientRect().height).filter(h => h < 10);
				return svgs.length + " svgs, " + bad.length + " outside, " + small.length + " small texts, overflow " + (document.documentElement.scrollWidth > window.innerWidth + 1) + ", " + svgs.map(s => s.getAttribute("aria-label")).join(" | ");
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s at %d: %s", p.name, width, got)
			wantSVGs := map[string]string{"changes-chart": "2 svgs", "note-map": "1 svgs"}[p.name]
			if !strings.HasPrefix(got, wantSVGs+", 0 outside, 0 small texts, overflow false") {
				t.Errorf("%s at %d px: %s", p.path, width, got)
			}
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
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
