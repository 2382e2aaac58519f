package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// browserContext starts headless Chromium (Debian's chromium, which .ci/run
// installs) and returns a tab's context. Without it the test is skipped,
// or fails under CI.
func browserContext(t *testing.T) context.Context {
	t.Helper()
	// Debian's /usr/bin/chromium is a shell script whose /dev/shm check can
	// fail on a machine with several mounts there; run the browser itself.
	path, err := exec.LookPath("/usr/lib/chromium/chromium")
	if err != nil {
		path, err = exec.LookPath("chromium")
	}
	if err != nil {
		if path, err = exec.LookPath("chromium-browser"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("chromium is missing (.ci/run installs it)")
			}
			t.Skip("no chromium on this machine (apt-get install chromium)")
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	// The first action starts the browser, whose life is its context's:
	// later ones run under a deadline.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// screenshots is where the tests put their screenshots: $WIKID_SCREENSHOTS,
// or a folder of the test's own, named in the log.
func screenshots(t *testing.T) string {
	dir := os.Getenv("WIKID_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowser uses the pages in a real browser, as a person reviewing an
// assistant's changes would: the timeline with the assistants' commits,
// a commit's diff, marking it reviewed, undoing another with its preview,
// a note's page, at a desktop and a phone width, with screenshots.
func TestBrowser(t *testing.T) {
	ctx := browserContext(t)
	w, dir := reviewWiki(t)
	reviewer := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: reviewer}))
	defer srv.Close()
	shots := screenshots(t)
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	text := func(css string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
		if err != nil {
			t.Fatalf("%s: %v", css, err)
		}
		return s
	}
	shot := func(name string) {
		t.Helper()
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%H", "--grep=edit: plan"))
	create := head(t, dir)

	do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/"))
	timeline := text("table")
	authors, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("td.who .author")].map(e => e.textContent).join(",")`))
	if err != nil {
		t.Fatal(err)
	}
	shot("changes")
	if authors != "codex,claude-code,Test Author" || !strings.Contains(timeline, "create: people/ada") || !strings.Contains(timeline, "+1 −1") {
		t.Errorf("timeline authors %q:\n%s", authors, timeline)
	}

	// The commit page: its diff, then Mark reviewed.
	do(chromedp.Navigate(srv.URL + "/commit/" + edit))
	diff := text("pre.diff")
	shot("commit")
	do(chromedp.Click(chromedp.CSS(`button[value="reviewed"]`)), chromedp.WaitVisible(chromedp.CSS(`p.mark`)))
	marked := text("p.mark")
	if !strings.Contains(diff, "-Ship the beta in June.") || !strings.Contains(diff, "+Ship the beta in July.") {
		t.Errorf("the commit's diff:\n%s", diff)
	}
	if note := gittest.Git(t, dir, "notes", "--ref=wikid-review", "show", edit); !strings.HasPrefix(note, "reviewed by Pat Person") || !strings.Contains(marked, "reviewed") {
		t.Errorf("marking reviewed: the page says %q, the git note %q", marked, note)
	}

	// Undo the assistant's new note: the preview first, then one commit.
	do(chromedp.Navigate(srv.URL+"/commit/"+create), chromedp.Click(chromedp.CSS(`form[action$="/revert"] button`)),
		chromedp.WaitReady(chromedp.CSS(`input[name="confirm"]`)))
	preview := text("main")
	shot("undo-preview")
	do(chromedp.EmulateViewport(390, 800))
	shot("undo-preview-phone")
	do(chromedp.EmulateViewport(1280, 900))
	if head(t, dir) != create || !strings.Contains(preview, "-Owns the <launch> & risks.") {
		t.Fatalf("the preview committed, or does not show the change:\n%s", preview)
	}
	do(chromedp.Click(chromedp.CSS(`form[action$="/revert"] button`)), chromedp.Sleep(300*time.Millisecond), chromedp.WaitVisible(chromedp.CSS(`h1`)))
	if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", create+"..HEAD")); n != "1" {
		t.Errorf("the undo made %s commits", n)
	}
	if msg := gittest.Git(t, dir, "log", "-1", "--format=%an%n%B"); !strings.HasPrefix(msg, "Pat Person") || !strings.Contains(msg, "Wiki-Tool: web undo") {
		t.Errorf("the undo commit:\n%s", msg)
	}

	// A request without the form's CSRF token, from the page itself, and
	// a form posted from another site, with the browser's cookies, are
	// refused and write nothing.
	do(chromedp.Navigate(srv.URL + "/commit/" + create))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const f = document.createElement("form"); f.method = "post";
		f.action = "/commit/`+create+`/review"; const i = document.createElement("input"); i.name = "state"; i.value = "flagged";
		f.appendChild(i); document.body.appendChild(f); f.submit(); return true })()`)); err != nil {
		t.Fatal(err)
	}
	do(chromedp.Sleep(500 * time.Millisecond))
	if refused := text("main"); !strings.Contains(refused, "403") {
		t.Errorf("a form without the CSRF token was not refused:\n%s", refused)
	}
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<form method="post" action="` + srv.URL + `/commit/` + create + `/review"><input name="state" value="flagged"><button>go</button></form>`))
	}))
	defer evil.Close()
	do(chromedp.Navigate(strings.Replace(evil.URL, "127.0.0.1", "localhost", 1)), chromedp.Click(chromedp.CSS("button")), chromedp.Sleep(500*time.Millisecond))
	if out, _ := gittest.TryGit(dir, "notes", "--ref=wikid-review", "show", create); strings.Contains(out, "flagged") {
		t.Errorf("a form from another site flagged the commit: %q", out)
	}

	// Undoing the first edit conflicts with a later edit of the same line:
	// the page says so, and nothing is committed.
	if _, err := w.Edit(context.Background(), wiki.EditRequest{Path: "plan", Edits: []note.Edit{{Op: note.OpReplace, Find: "Ship the beta in July.", Content: "Ship the beta in August."}}}); err != nil {
		t.Fatal(err)
	}
	before := head(t, dir)
	do(chromedp.Navigate(srv.URL+"/commit/"+edit), chromedp.Click(chromedp.CSS(`form[action$="/revert"] button`)), chromedp.WaitVisible(chromedp.CSS(`p.conflict`)))
	shot("undo-conflict")
	if head(t, dir) != before {
		t.Error("a conflicting undo committed")
	}

	// Read-only: no buttons.
	ro := httptest.NewServer(web.New(w, web.Options{ReadOnly: true}))
	defer ro.Close()
	do(chromedp.Navigate(ro.URL + "/commit/" + edit))
	buttons, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelectorAll("button").length`))
	if err != nil || buttons != 0 {
		t.Errorf("a read-only page has %v buttons (%v)", buttons, err)
	}

	// A note's page, and every page at a phone's width without sideways
	// scrolling of the page itself.
	do(chromedp.Navigate(srv.URL + "/note/plan"))
	if rendered := text("article.note"); !strings.Contains(rendered, "Ship the beta in August.") {
		t.Errorf("the note's page:\n%s", rendered)
	}
	shot("note")
	do(chromedp.Navigate(srv.URL + "/browse/"))
	shot("browse-1280")
	for _, page := range []struct{ name, url string }{
		{"changes", "/"}, {"commit", "/commit/" + edit}, {"note", "/note/plan"}, {"browse", "/browse/"}, {"search", "/search?q=beta"},
	} {
		do(chromedp.EmulateViewport(390, 800), chromedp.Navigate(srv.URL+page.url))
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`))
		if err != nil {
			t.Fatal(err)
		}
		shot(page.name + "-phone")
		if overflow {
			t.Errorf("%s scrolls sideways at 390 px", page.url)
		}
	}
	t.Logf("screenshots in %s", shots)
}
