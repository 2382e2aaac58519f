package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// timelineWiki is a generated wiki of 1,000 notes whose newest commits
// are three MCP clients' sessions: claude-code's new notes and a rename
// of a 60-note folder, codex's notes, cursor's delete, then claude-code
// again; under them a person's import of that folder.
func timelineWiki(t *testing.T) (*wiki.Wiki, string) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "wiki")
	gittest.Generate(t, dir, 1000, 200)
	archive := map[string]string{}
	for i := range 60 {
		archive[fmt.Sprintf("archive/2024/meeting-%02d.md", i)] = fmt.Sprintf("# Meeting %d\n\nNotes of meeting %d.\n", i, i)
	}
	gittest.Commit(t, dir, "import the 2024 meeting notes", archive)
	w := openWiki(t, dir)
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	caller := func(client, author string, tool string) wiki.Mutation {
		name, _, _ := strings.Cut(author, "@")
		return wiki.Mutation{Caller: wiki.Caller{Client: client, Tool: tool, Author: wiki.Identity{Name: name, Email: author}}}
	}
	steps := []func() error{
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "projects/launch-checklist", Content: "# Launch checklist\n\n- [ ] docs\n", Mutation: caller("claude-code/2.1.4", "claude-code@mcp.wikid", "write_note")})
			return err
		},
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "projects/launch-risks", Content: "# Launch risks\n\nThe supplier is late.\n", Mutation: caller("claude-code/2.1.4", "claude-code@mcp.wikid", "write_note")})
			return err
		},
		func() error {
			_, err := w.Move(ctx, wiki.MoveRequest{Path: "archive/2024/", NewPath: "archive/meetings-2024/", LeaveLinks: true, Mutation: caller("claude-code/2.1.4", "claude-code@mcp.wikid", "move_note")})
			return err
		},
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "people/grace-hopper", Content: "# Grace Hopper\n\nCompilers.\n", Mutation: caller("codex/0.9.1", "codex@mcp.wikid", "write_note")})
			return err
		},
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "people/ada-lovelace", Content: "# Ada Lovelace\n\nThe engine.\n", Mutation: caller("codex/0.9.1", "codex@mcp.wikid", "write_note")})
			return err
		},
		func() error {
			_, err := w.Delete(ctx, wiki.DeleteRequest{Path: "projects/launch-risks", Confirm: true, Mutation: caller("cursor/1.3", "Ada Assistant@cursor.mcp.wikid", "delete_note")})
			return err
		},
		func() error {
			_, err := w.Write(ctx, wiki.WriteRequest{Path: "projects/launch-checklist", Content: "# Launch checklist\n\n- [x] docs\n", Overwrite: true, Mutation: caller("claude-code/2.1.4", "claude-code@mcp.wikid", "write_note")})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return w, dir
}

// TestBrowser_Timeline opens the timeline of a large wiki at a desktop's
// and a phone's width: nothing scrolls sideways, no cell wraps, the
// 60-note rename is one line with its count, the sessions have their
// headers, and a session's button marks all of it reviewed.
func TestBrowser_Timeline(t *testing.T) {
	w, dir := timelineWiki(t)
	ctx := browserContext(t)
	srv := httptest.NewServer(web.New(w, web.Options{Reviewer: wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}}))
	defer srv.Close()
	shots := os.Getenv("WIKID_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	run := func(actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatal(err)
		}
	}
	for _, width := range []int64{1280, 390} {
		run(chromedp.EmulateViewport(width, 900), chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(chromedp.CSS("table.timeline")))
		var wide []string
		evaluate(t, ctx, `[...document.querySelectorAll("body *")].filter(e => e.checkVisibility()).filter(e => e.scrollWidth > innerWidth || e.getBoundingClientRect().right > innerWidth + 1)
			.map(e => e.tagName + "." + e.className + " " + e.scrollWidth).slice(0, 5)`, &wide)
		if len(wide) > 0 {
			t.Errorf("at %d px these are wider than the window: %v", width, wide)
		}
		// A text node that the browser lays out in more than one box has
		// wrapped, inside a word or between words.
		var wrapped []string
		evaluate(t, ctx, `(() => { const out = [], walk = document.createTreeWalker(document.querySelector("table.timeline"), NodeFilter.SHOW_TEXT);
			for (let n; (n = walk.nextNode());) { if (!n.textContent.trim()) continue;
				const r = document.createRange(); r.selectNodeContents(n);
				// An ellipsis adds a box on the same line.
				if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) out.push(n.textContent.trim()) }
			return out.slice(0, 5) })()`, &wrapped)
		if len(wrapped) > 0 {
			t.Errorf("at %d px these wrap: %q", width, wrapped)
		}
		var rename struct {
			Count  string
			Height float64
			Line   float64
		}
		evaluate(t, ctx, `(() => { const row = [...document.querySelectorAll("tr.commit")].find(r => r.textContent.includes("archive/meetings-2024"));
			if (!row) return {}; const s = row.querySelector("td.what summary");
			return {Count: s ? s.querySelector(".count").textContent : "", Height: s ? s.getBoundingClientRect().height : 0,
				Line: row.querySelector("td.when").getBoundingClientRect().height} })()`, &rename)
		if rename.Count != "60 files" || rename.Height == 0 || rename.Height > 1.5*rename.Line {
			t.Errorf("at %d px the rename shows %+v, want one line with 60 files", width, rename)
		}
		var heads []string
		evaluate(t, ctx, `[...document.querySelectorAll("tr.session-head .client")].map(e => e.textContent)`, &heads)
		if strings.Join(heads, ",") != "claude-code/2.1.4,cursor/1.3,codex/0.9.1,claude-code/2.1.4" {
			t.Errorf("the sessions: %q", heads)
		}
		buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("changes-%d.png", width)), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The rename's files open under it; the session of it is marked
	// reviewed with one button.
	run(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+"/"), chromedp.WaitReady(chromedp.CSS("table.timeline")))
	var files float64
	var clicked bool
	evaluate(t, ctx, `(document.querySelector("tr.commit .count").click(), true)`, &clicked)
	evaluate(t, ctx, `document.querySelectorAll("details[open] ul.files li").length`, &files)
	if files != 51 {
		t.Errorf("the open rename lists %v lines, want 50 files and one for the 10 more", files)
	}
	evaluate(t, ctx, `([...document.querySelectorAll("tbody.session")].at(-1).querySelector("button").click(), true)`, &clicked)
	run(chromedp.Sleep(700*time.Millisecond), chromedp.WaitReady(chromedp.CSS("table.timeline")))
	notes := gittest.Git(t, dir, "notes", "--ref=wikid-review", "list")
	if n := len(strings.Fields(notes)) / 2; n != 3 {
		t.Errorf("the session's button marked %d commits, want 3:\n%s", n, notes)
	}
	var marked string
	evaluate(t, ctx, `[...document.querySelectorAll("tbody.session")].at(-1).querySelector("tr.session-head").textContent`, &marked)
	if !strings.Contains(marked, "all marked") {
		t.Errorf("the marked session's header: %q", marked)
	}
}

// evaluate runs js in the page and stores its JSON value in out.
func evaluate[T any](t *testing.T, ctx context.Context, js string, out *T) {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	*out = v
}
