package wiki_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Daily(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	w := openWiki(t, dir, func(o *wiki.Options) {
		o.Daily = wiki.DailyOptions{Folder: "journal", Template: "templates/daily"}
	})
	tpl, err := os.ReadFile(filepath.Join(dir, "templates", "daily.md"))
	if err != nil {
		t.Fatal(err)
	}
	fromTemplate := strings.ReplaceAll(strings.ReplaceAll(string(tpl), "{{date}}", "2024-06-01"), "{{title}}", "2024-06-01")

	if _, err := w.Daily(ctx, wiki.DailyRequest{}); wiki.CodeOf(err) != wiki.CodeNotFound {
		t.Fatalf("reading a daily note that does not exist: %v, want NOT_FOUND", err)
	}
	res, err := w.Daily(ctx, wiki.DailyRequest{Op: note.OpAppendSection, Section: "Log", Content: "- 10:30 started"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Path != "journal/2024-06-01" || res.Result.Commit == "" {
		t.Fatalf("result %+v", res)
	}
	want := strings.Replace(fromTemplate, "## Log\n", "## Log\n- 10:30 started\n", 1)
	if got := gittest.Git(t, dir, "show", "HEAD:journal/2024-06-01.md"); got != want {
		t.Errorf("new daily note =\n%q\nwant\n%q", got, want)
	}
	if c := lastCommit(t, dir); c.subject != "daily: journal/2024-06-01" {
		t.Errorf("subject %q", c.subject)
	}

	// The second write of the day appends to the note; it is not re-created.
	res, err = w.Daily(ctx, wiki.DailyRequest{Date: "2024-06-01", Op: note.OpAppend, Content: "done"})
	if err != nil || res.Created {
		t.Fatalf("second write: %+v, %v", res, err)
	}
	read, err := w.Daily(ctx, wiki.DailyRequest{Date: "2024-06-01", Op: "read"})
	if err != nil || !strings.HasSuffix(read.Note.Content, "done\n") || read.Note.Title != "2024-06-01" {
		t.Errorf("read back: %+v, %v", read, err)
	}
	checkRepo(t, dir)

	for _, bad := range []wiki.DailyRequest{{Date: "2024-13-01", Op: "append"}, {Op: "replace"}} {
		if _, err := w.Daily(ctx, bad); wiki.CodeOf(err) != wiki.CodeInvalidParams {
			t.Errorf("%+v: %v, want INVALID_PARAMS", bad, err)
		}
	}
}

// TestWiki_Daily_rootFolder: folder "/" (Obsidian's default) puts daily
// notes at the root, and the options keep saying so when validated again.
func TestWiki_Daily_rootFolder(t *testing.T) {
	ctx := context.Background()
	for _, folder := range []string{"/", ".", "//"} {
		t.Run(folder, func(t *testing.T) {
			dir := fixtureRepo(t, "basic")
			w := openWiki(t, dir, func(o *wiki.Options) { o.Daily = wiki.DailyOptions{Folder: folder} })
			opts := w.Options()
			if err := opts.Validate(); err != nil || opts.Daily.Folder != "/" {
				t.Fatalf("validated again: folder %q, %v", opts.Daily.Folder, err)
			}
			res, err := w.Daily(ctx, wiki.DailyRequest{Date: "2024-06-02", Op: note.OpAppend, Content: "- at the root"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Path != "2024-06-02" || !res.Created {
				t.Errorf("result %+v", res)
			}
			if got := gittest.Git(t, dir, "show", "HEAD:2024-06-02.md"); !strings.HasSuffix(got, "- at the root\n") {
				t.Errorf("2024-06-02.md:\n%s", got)
			}
			checkRepo(t, dir)
		})
	}
}
