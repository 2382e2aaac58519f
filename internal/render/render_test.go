package render_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

// Two front ends' words, as the tools and the command line word the
// references a rendering holds.
var (
	toolWords = wiki.Words{"cursor": "cursor", "limit": "limit", "update_links": "set update_links: true", "offset": "offset", "status": "wiki_status", "links": "get_links"}
	cliWords  = wiki.Words{"cursor": "--cursor", "limit": "--limit", "update_links": "leave out --no-update-links", "offset": "", "status": "wikid daemon status", "links": ""}
)

func TestRenderings_SaidInEachFrontEndsWords(t *testing.T) {
	date := time.Date(2024, 6, 1, 9, 30, 0, 0, time.UTC)
	history := &wiki.HistoryResult{Path: "a", Exists: true, Total: 2, NextCursor: "c2",
		Revisions: []wiki.HistoryEntry{{Short: "abc1234", Date: date, Author: "Ann <ann@x>", Subject: "edit: a", Change: wiki.ChangeModified, Additions: 1}}}
	read := &wiki.ReadResult{Path: "a", Title: "A", Version: "0123456789", Content: "# A\nbody", Truncated: true, Offset: 0, NextOffset: 8, TotalChars: 20}
	hub := &wiki.ReadResult{Path: "hub", Title: "Hub", Version: "0123456789", MoreBacklinks: 7,
		Backlinks: []wiki.Backlink{{Path: "days/001", Links: []wiki.LinkSite{{Line: 3, Context: "see [[hub]]"}}}}}
	moved := &wiki.Result{DryRun: true, Changes: []wiki.NoteChange{{Path: "c", From: "b", Action: wiki.ActionMoved}},
		BrokenLinks: []wiki.LinkedNote{{Path: "a", Links: []wiki.LinkChange{{Line: 1}}}}, Risk: "low", Summary: "renames b.md to c.md"}
	scanned := &wiki.SearchResult{Total: 1, Results: []wiki.SearchHit{{Path: "p", Title: "Plan"}},
		Scan: &wiki.ScanInfo{Read: 6400, Searched: 300, Notes: 10000}}
	tests := []struct {
		name      string
		text      string
		tool, cli string
	}{
		{"a page's cursor", render.History(history), `More: pass cursor "c2".`, `More: pass --cursor "c2".`},
		{"a read cut short", render.Read(read, false), "shown; read on with offset 8", "20 shown\n"},
		{"a hub's backlinks", render.Read(hub, true), "  … and 7 more notes (get_links lists them all)\n", "  … and 7 more notes\n"},
		{"a move that leaves links", render.Moved("b", "c", moved, false),
			"To update these links, set update_links: true.", "To update these links, leave out --no-update-links."},
		{"a search from a scan", render.Search("plan", scanned),
			"searched the 300 notes that hold most of the query's words, of 10000 notes (6400 read for its words so far): other notes may match too; once wiki_status shows",
			"once wikid daemon status shows"},
		{"a scan that found nothing yet", render.Search("zanzibar", &wiki.SearchResult{Scan: &wiki.ScanInfo{Read: 6400, Searched: 0, Notes: 10000}}),
			"Not found yet: the search index is being built, and this answer read 6400 of 10000 notes and searched 0 without a match, which does not mean that no note matches.",
			"once wikid daemon status shows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				words wiki.Words
				want  string
			}{{toolWords, tt.tool}, {cliWords, tt.cli}} {
				got := c.words.Say(tt.text)
				if !strings.Contains(got+"\n", c.want) {
					t.Errorf("said as %q, lacks %q:\n%s", c.words["cursor"], c.want, got)
				}
				if strings.ContainsAny(got, "\x02\x03\x04\x05") {
					t.Errorf("reference marks left in:\n%q", got)
				}
			}
		})
	}
}

func TestRenderings_ArgumentsAreNotReferences(t *testing.T) {
	// A note named like a reference stays as it is: only the rendering's
	// own words are references.
	res := &wiki.HistoryResult{Path: "{cursor}", Exists: true, Total: 0}
	if got := cliWords.Say(render.History(res)); !strings.Contains(got, "History of {cursor}:") {
		t.Errorf("got:\n%s", got)
	}
}

func TestWritten_HeadlineFromTheNoteAsWritten(t *testing.T) {
	res := &wiki.Result{Commit: "0123456789abcdef", Branch: "main",
		Changes: []wiki.NoteChange{{Path: "ideas", Action: wiki.ActionCreated, Title: "Ideas", Additions: 3, Version: "fedcba9876"}}}
	want := `Created note "Ideas" at ideas (+3 -0; commit 0123456 on main, version fedcba9)`
	if got := render.Written("Ideas.md", res); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	res.Commit = ""
	if got := render.Written("ideas", res); !strings.HasPrefix(got, "No change") {
		t.Errorf("an unchanged note: %q", got)
	}
}

// TestSearch_NotFoundOnlyWhenComplete checks that a search answered from
// a scan says that no note was found only when the scan was complete.
func TestContext_NotFoundOnlyWhenComplete(t *testing.T) {
	for _, complete := range []bool{false, true} {
		res := &wiki.ContextResult{Query: "zanzibar", Scan: &wiki.ScanInfo{Read: 10000, Searched: 0, Notes: 10000, Complete: complete}}
		got := render.Context(res)
		if strings.Contains(got, "No sections found") != complete || strings.Contains(got, "Not found yet") == complete {
			t.Errorf("complete %v:\n%s", complete, got)
		}
	}
	if got := render.Context(&wiki.ContextResult{Query: "zanzibar"}); !strings.Contains(got, "No sections found") {
		t.Errorf("an index's empty answer:\n%s", got)
	}
}

func TestSearch_NotFoundOnlyWhenComplete(t *testing.T) {
	for _, complete := range []bool{false, true} {
		res := &wiki.SearchResult{Scan: &wiki.ScanInfo{Read: 10000, Searched: 0, Notes: 10000, Complete: complete}}
		got := render.Search("zanzibar", res)
		if strings.Contains(got, "No notes found") != complete {
			t.Errorf("complete %v:\n%s", complete, got)
		}
	}
}
