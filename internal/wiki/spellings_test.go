package wiki_test

import (
	"context"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// listPaths returns the paths of the notes and folders a List of folder
// shows.
func listPaths(tb testing.TB, w *wiki.Wiki, folder string) (notes, folders []string) {
	tb.Helper()
	res, err := w.List(context.Background(), wiki.ListRequest{Path: folder})
	if err != nil {
		tb.Fatalf("List(%+q): %v", folder, err)
	}
	for _, n := range res.Notes {
		notes = append(notes, n.Path)
	}
	for _, f := range res.Folders {
		folders = append(folders, f.Path)
	}
	return notes, folders
}

// TestWiki_List_EitherNormalizationForm lists a folder committed in form D
// by its name in form C, and one committed in form C by its name in form
// D: each spelling lists the folder's notes.
func TestWiki_List_EitherNormalizationForm(t *testing.T) {
	dir := seeded(t, map[string]string{
		"index.md":                             "# Home\n",
		reunNFD + "/" + cafeNFD + ".md":        "# Café\n",
		reunNFD + "/2024/" + cafeNFD + ".md":   "# Café 2024\n",
		"areas/" + cafeNFC + "/" + "menu.md":   "# Menu\n",
		"areas/" + cafeNFC + "/" + "prices.md": "# Prices\n",
	})
	w := openWiki(t, dir, nil)
	for _, folder := range []string{reunNFC, reunNFD, reunNFC + "/"} {
		notes, folders := listPaths(t, w, folder)
		if len(notes) != 1 || notes[0] != reunNFD+"/"+cafeNFD || len(folders) != 1 || folders[0] != reunNFD+"/2024" {
			t.Errorf("List(%+q) = %+q, folders %+q", folder, notes, folders)
		}
	}
	for _, folder := range []string{"areas/" + cafeNFC, "areas/" + cafeNFD} {
		if notes, _ := listPaths(t, w, folder); len(notes) != 2 || notes[0] != "areas/"+cafeNFC+"/menu" {
			t.Errorf("List(%+q) = %+q", folder, notes)
		}
	}
	_, err := w.List(context.Background(), wiki.ListRequest{Path: "R\u00e9union"})
	wantCode(t, err, wiki.CodeNotFound)
}

// TestWiki_Restore_EitherNormalizationForm restores deleted notes by the
// other spelling of their names: one committed in form D asked in form C,
// one in form C in a folder in form D asked the other way round, one in
// form C asked in form D. Each comes back under the name git had.
func TestWiki_Restore_EitherNormalizationForm(t *testing.T) {
	ctx := context.Background()
	nfdFile := reunNFD + "/" + cafeNFD + ".md"
	mixedFile := reunNFD + "/th\u00e9.md"
	nfcFile := "areas/" + cafeNFC + ".md"
	dir := seeded(t, map[string]string{"index.md": "# Home\n", nfdFile: "# Café\n", mixedFile: "# Thé\n", nfcFile: "# Areas\n"})
	w := openWiki(t, dir, nil)
	for _, file := range []string{nfdFile, mixedFile, nfcFile} {
		gittest.Git(t, dir, "rm", "-q", file)
	}
	gittest.Git(t, dir, "commit", "-q", "-m", "tidy up")

	for _, tc := range []struct{ ask, file, content string }{
		{reunNFC + "/" + cafeNFC, nfdFile, "# Café\n"},
		{reunNFC + "/the\u0301", mixedFile, "# Thé\n"},
		{"areas/" + cafeNFD, nfcFile, "# Areas\n"},
	} {
		res, err := w.Restore(ctx, wiki.RestoreRequest{Path: tc.ask, Mutation: wiki.Mutation{Caller: cli}})
		if err != nil {
			t.Fatalf("Restore(%+q): %v", tc.ask, err)
		}
		if got := res.Changes[0].File; got != tc.file {
			t.Errorf("Restore(%+q) restored %+q, want %+q", tc.ask, got, tc.file)
		}
		if got := gittest.Git(t, dir, "show", "HEAD:"+tc.file); got != tc.content {
			t.Errorf("HEAD:%+q = %q", tc.file, got)
		}
	}
	wantFiles(t, dir, "index.md", nfdFile, mixedFile, nfcFile)
}

// TestWiki_NamesWindowsCannotHave is a repository whose folder name ends in
// a space and whose note name ends in a dot, as git allows and Windows
// does not: every tool reaches them, and no new name like them is made.
func TestWiki_NamesWindowsCannotHave(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"index.md":       "# Home\n",
		"notes /plan.md": "# Plan\n",
		"notes /v1..md":  "# Version 1\n",
	})
	w := openWiki(t, dir, nil)
	m := wiki.Mutation{Caller: cli}

	if _, folders := listPaths(t, w, ""); len(folders) != 1 || folders[0] != "notes " {
		t.Errorf("the root lists folders %+q", folders)
	}
	if notes, _ := listPaths(t, w, "notes /"); len(notes) != 2 || notes[0] != "notes /plan" || notes[1] != "notes /v1." {
		t.Errorf("List(\"notes /\") = %+q", notes)
	}
	if file, content := readContent(t, w, "notes /plan"); file != "notes /plan.md" || content != "# Plan\n" {
		t.Errorf("Read = %+q, %q", file, content)
	}
	if file, _ := readContent(t, w, "notes /v1..md"); file != "notes /v1..md" {
		t.Errorf("Read = %+q", file)
	}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "notes /plan", Edits: []note.Edit{{Op: note.OpAppend, Content: "Edited."}}, Mutation: m}); err != nil {
		t.Fatal(err)
	}
	if got := gittest.Git(t, dir, "show", "HEAD:notes /plan.md"); got != "# Plan\nEdited.\n" {
		t.Errorf("HEAD has %q", got)
	}
	if h, err := w.History(ctx, wiki.HistoryRequest{Path: "notes /plan"}); err != nil || h.Total != 2 {
		t.Errorf("History = %+v, %v", h, err)
	}

	for _, p := range []string{"notes /new", "draft .md", "a/ draft", "v2.", "new /plan"} {
		_, err := w.Write(ctx, write(p, "x\n"))
		wantCode(t, err, wiki.CodeInvalidPath)
	}
	_, err := w.Move(ctx, wiki.MoveRequest{Path: "index", NewPath: "notes /index", Mutation: m})
	wantCode(t, err, wiki.CodeInvalidPath)

	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: "notes /v1..md", Confirm: true, Mutation: m}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Restore(ctx, wiki.RestoreRequest{Path: "notes /v1..md", Mutation: m}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md", "notes /plan.md", "notes /v1..md")
	if _, err := w.Move(ctx, wiki.MoveRequest{Path: "notes /", NewPath: "notes", Mutation: m}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md", "notes/plan.md", "notes/v1..md")
}
