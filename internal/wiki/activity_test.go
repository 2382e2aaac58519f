package wiki_test

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// gitCommit is a commit as git log reports it, with the files it changed
// against its first parent.
type gitCommit struct {
	id, author, tool, client, subject string
	time                              int64
	files                             []string
}

// gitLog returns the commits of HEAD in git log order.
func gitLog(t *testing.T, dir string) []gitCommit {
	t.Helper()
	out := gittest.Git(t, dir, "log", "--diff-merges=first-parent", "--name-only",
		"--format=%x00%H%x01%an <%ae>%x01%ct%x01%(trailers:key=Wiki-Tool,valueonly,separator=)%x01%(trailers:key=Wiki-Client,valueonly,separator=)%x01%s")
	var cs []gitCommit
	for _, rec := range strings.Split(out, "\x00")[1:] {
		head, names, _ := strings.Cut(rec, "\n")
		f := strings.Split(head, "\x01")
		ct, _ := strconv.ParseInt(f[2], 10, 64)
		c := gitCommit{id: f[0], author: f[1], time: ct, tool: f[3], client: f[4], subject: f[5]}
		for _, n := range strings.Split(names, "\n") {
			if n != "" {
				c.files = append(c.files, n)
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func TestWiki_Activity(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	log := gitLog(t, s.dir)
	mid := time.Unix(log[len(log)/2].time, 0)
	tests := []struct {
		name string
		req  wiki.ActivityRequest
		keep func(c gitCommit) bool
	}{
		{"all", wiki.ActivityRequest{}, func(gitCommit) bool { return true }},
		{"author", wiki.ActivityRequest{Author: "test author"}, func(c gitCommit) bool { return strings.HasPrefix(c.author, "Test Author") }},
		{"tool", wiki.ActivityRequest{Tool: "edit_note"}, func(c gitCommit) bool { return c.tool == "edit_note" }},
		{"folder", wiki.ActivityRequest{Folder: "notes"}, func(c gitCommit) bool {
			return changes(c, func(f string) bool { return strings.HasPrefix(f, "notes/") })
		}},
		{"path", wiki.ActivityRequest{Path: "a"}, func(c gitCommit) bool { return changes(c, func(f string) bool { return f == "a.md" }) }},
		{"since", wiki.ActivityRequest{Since: mid}, func(c gitCommit) bool { return c.time >= mid.Unix() }},
		{"until", wiki.ActivityRequest{Until: mid}, func(c gitCommit) bool { return c.time <= mid.Unix() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want []gitCommit
			for _, c := range log {
				if tc.keep(c) {
					want = append(want, c)
				}
			}
			got := activityPages(t, s.w, tc.req, 3)
			if len(got) != len(want) {
				t.Fatalf("%d commits, want %d", len(got), len(want))
			}
			for i, e := range got {
				w := want[i]
				if e.Commit != w.id || e.Author != w.author || e.Tool != w.tool || e.Client != w.client || e.Subject != w.subject {
					t.Errorf("commit %d = %+v, want %+v", i, e, w)
				}
				if e.Merge != (w.subject == "merge the clone") {
					t.Errorf("commit %d: merge %v", i, e.Merge)
				}
				checkActivityFiles(t, s.dir, e)
			}
		})
	}
	t.Run("errors", func(t *testing.T) {
		for _, req := range []wiki.ActivityRequest{
			{Cursor: "garbage"},
			{Limit: -1},
			{Since: mid, Until: mid.Add(-time.Hour)},
		} {
			_, err := s.w.Activity(ctx, req)
			wantCode(t, err, wiki.CodeInvalidParams)
		}
		_, err := s.w.Activity(ctx, wiki.ActivityRequest{Folder: "../up"})
		wantCode(t, err, wiki.CodeInvalidPath)
	})
}

func changes(c gitCommit, match func(string) bool) bool {
	for _, f := range c.files {
		if match(f) {
			return true
		}
	}
	return false
}

// activityPages collects all pages of an activity log.
func activityPages(t *testing.T, w *wiki.Wiki, req wiki.ActivityRequest, limit int) []wiki.ActivityEntry {
	t.Helper()
	var all []wiki.ActivityEntry
	req.Limit = limit
	for {
		res, err := w.Activity(context.Background(), req)
		if err != nil {
			t.Fatalf("activity: %v", err)
		}
		all = append(all, res.Commits...)
		if len(res.Commits) > limit {
			t.Fatalf("page of %d", len(res.Commits))
		}
		if res.NextCursor == "" {
			if res.Total != len(all) {
				t.Errorf("total %d, listed %d", res.Total, len(all))
			}
			return all
		}
		req.Cursor = res.NextCursor
	}
}

// checkActivityFiles compares a commit's files and counts with git show
// --numstat against its first parent, renames detected.
func checkActivityFiles(t *testing.T, dir string, e wiki.ActivityEntry) {
	t.Helper()
	want := numstatZ(t, dir, "show", "--format=", "-z", "--numstat", "-M", "--diff-merges=first-parent", e.Commit)
	got := map[string][2]int{}
	adds, dels := 0, 0
	for _, f := range e.Files {
		key := f.Path
		if f.OldPath != "" {
			key = f.OldPath + " => " + f.Path
		}
		got[key] = [2]int{f.Additions, f.Deletions}
		adds += f.Additions
		dels += f.Deletions
	}
	if len(got) != len(want) {
		t.Errorf("%s: files %v, git %v", e.Short, got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s %v, git %v", e.Short, k, got[k], v)
		}
	}
	if adds != e.Additions || dels != e.Deletions {
		t.Errorf("%s: totals +%d -%d, files +%d -%d", e.Short, e.Additions, e.Deletions, adds, dels)
	}
}

// numstatZ runs git with -z --numstat and returns the counts by note path
// (the file for other files), "old => new" for a rename.
func numstatZ(t *testing.T, dir string, args ...string) map[string][2]int {
	t.Helper()
	fields := strings.Split(gittest.Git(t, dir, args...), "\x00")
	out := map[string][2]int{}
	for i := 0; i < len(fields); i++ {
		f := strings.TrimLeft(fields[i], "\n")
		if f == "" {
			continue
		}
		parts := strings.SplitN(f, "\t", 3)
		key := notePathOrFile(parts[2])
		if parts[2] == "" {
			key = notePathOrFile(fields[i+1]) + " => " + notePathOrFile(fields[i+2])
			i += 2
		}
		out[key] = [2]int{atoi(parts[0]), atoi(parts[1])}
	}
	return out
}

func notePathOrFile(file string) string {
	if p, _, ok := note.SplitFileName(file); ok {
		return p
	}
	return file
}

func TestWiki_RecentChanges(t *testing.T) {
	s := newScenario(t)
	ctx := context.Background()
	type last struct {
		file, commit, author string
		time                 int64
	}
	var notes []last
	for _, f := range gitLines(t, s.dir, "ls-files", "*.md", "*.mdx") {
		l := strings.Split(gitLines(t, s.dir, "log", "-1", "--follow", "--format=%ct%x00%H%x00%an <%ae>", "--", f)[0], "\x00")
		ct, _ := strconv.ParseInt(l[0], 10, 64)
		notes = append(notes, last{f, l[1], l[2], ct})
	}
	sort.Slice(notes, func(i, j int) bool {
		if notes[i].time != notes[j].time {
			return notes[i].time > notes[j].time
		}
		return notes[i].file < notes[j].file
	})
	for _, tc := range []struct {
		name string
		req  wiki.RecentRequest
		keep func(last) bool
	}{
		{"all", wiki.RecentRequest{}, func(last) bool { return true }},
		{"folder", wiki.RecentRequest{Folder: "notes"}, func(l last) bool { return strings.HasPrefix(l.file, "notes/") }},
		{"author", wiki.RecentRequest{Author: "ada@example"}, func(l last) bool { return strings.Contains(l.author, "ada@example") }},
		{"since", wiki.RecentRequest{Since: time.Unix(notes[2].time, 0)}, func(l last) bool { return l.time >= notes[2].time }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			for _, n := range notes {
				if tc.keep(n) {
					want = append(want, notePathOrFile(n.file)+" "+n.commit)
				}
			}
			var got []string
			req := tc.req
			req.Limit = 2
			for {
				res, err := s.w.RecentChanges(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if res.Total != len(want) {
					t.Errorf("total %d, want %d", res.Total, len(want))
				}
				for _, n := range res.Results {
					got = append(got, n.Path+" "+n.Commit)
					if n.Title == "" || n.Author == "" {
						t.Errorf("note %+v", n)
					}
				}
				if res.NextCursor == "" {
					break
				}
				req.Cursor = res.NextCursor
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("recent changes:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
