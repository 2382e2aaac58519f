package wiki_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// The two spellings of "café": precomposed (normal form C, what keyboards
// type) and decomposed (form D, what macOS's HFS+ stored).
const (
	cafeNFC = "caf\u00e9"
	cafeNFD = "cafe\u0301"
	reunNFC = "R\u00e9unions"
	reunNFD = "Re\u0301unions"
)

// lsFiles returns `git ls-files` of a checkout, as bytes (no quoting).
func lsFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	for _, f := range strings.Split(gittest.Git(tb, dir, "ls-files", "-z"), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// wantFiles fails unless `git ls-files` and HEAD's tree list exactly want
// (as bytes) and the checkout is clean.
func wantFiles(tb testing.TB, dir string, want ...string) {
	tb.Helper()
	checkRepo(tb, dir)
	slices.Sort(want)
	if got := lsFiles(tb, dir); !slices.Equal(got, want) {
		tb.Fatalf("git ls-files = %+q, want %+q", got, want)
	}
	var tree []string
	for f := range gitFiles(tb, dir) {
		tree = append(tree, f)
	}
	slices.Sort(tree)
	if !slices.Equal(tree, want) {
		tb.Fatalf("HEAD holds %+q, want %+q", tree, want)
	}
}

func write(path, content string) wiki.WriteRequest {
	return wiki.WriteRequest{Path: path, Content: content, Mutation: wiki.Mutation{Caller: cli}}
}

func readContent(tb testing.TB, w *wiki.Wiki, path string) (file, content string) {
	tb.Helper()
	res, err := w.Read(context.Background(), wiki.ReadRequest{Path: path})
	if err != nil {
		tb.Fatalf("Read(%+q): %v", path, err)
	}
	return res.File, res.Content
}

// TestWiki_Write_NormalizationFormsAreOneNote writes "café" in form D and
// then reads and writes it in form C: one note, one file, named in form C.
func TestWiki_Write_NormalizationFormsAreOneNote(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"index.md": "# Home\n"})
	w := openWiki(t, dir, nil)

	res, err := w.Write(ctx, write("areas/"+cafeNFD, "# Café\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Changes[0].File; got != "areas/"+cafeNFC+".md" {
		t.Fatalf("created %+q, want the name in normal form C", got)
	}
	wantFiles(t, dir, "index.md", "areas/"+cafeNFC+".md")

	for _, p := range []string{"areas/" + cafeNFC, "areas/" + cafeNFD, "AREAS/CAFE\u0301.md"} {
		if file, content := readContent(t, w, p); file != "areas/"+cafeNFC+".md" || content != "# Café\n" {
			t.Errorf("Read(%+q) = %+q, %q", p, file, content)
		}
	}
	_, err = w.Write(ctx, write("areas/"+cafeNFC, "# Second\n"))
	wantCode(t, err, wiki.CodeAlreadyExists)

	over := write("areas/"+cafeNFC, "# Café, again\n")
	over.Overwrite = true
	if _, err := w.Write(ctx, over); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: "areas/" + cafeNFD, Edits: []note.Edit{{Op: note.OpAppend, Content: "More."}},
		Mutation: wiki.Mutation{Caller: cli}}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md", "areas/"+cafeNFC+".md")
	if _, content := readContent(t, w, "areas/"+cafeNFD); !strings.HasPrefix(content, "# Café, again\n") || !strings.Contains(content, "More.") {
		t.Errorf("content %q", content)
	}
}

// TestWiki_ExistingDecomposedNote is a note committed from macOS in form D:
// it keeps its name, and every spelling of it reaches it.
func TestWiki_ExistingDecomposedNote(t *testing.T) {
	ctx := context.Background()
	nfdFile := reunNFD + "/" + cafeNFD + ".md"
	dir := seeded(t, map[string]string{"index.md": "# Home\n", nfdFile: "# Café\n"})
	w := openWiki(t, dir, nil)

	for _, p := range []string{reunNFD + "/" + cafeNFD, reunNFC + "/" + cafeNFC, reunNFC + "/" + cafeNFD} {
		if file, _ := readContent(t, w, p); file != nfdFile {
			t.Errorf("Read(%+q) found %+q, want %+q", p, file, nfdFile)
		}
	}
	over := write(reunNFC+"/"+cafeNFC, "# Café\n\nEdited.\n")
	over.Overwrite = true
	if _, err := w.Write(ctx, over); err != nil {
		t.Fatal(err)
	}
	_, err := w.Write(ctx, write(reunNFC+"/"+cafeNFC, "# New\n"))
	wantCode(t, err, wiki.CodeAlreadyExists)
	wantFiles(t, dir, "index.md", nfdFile)

	t.Run("a new note goes into the folder as it is spelled", func(t *testing.T) {
		res, err := w.Write(ctx, write(reunNFC+"/th\u00e9", "# Thé\n"))
		if err != nil {
			t.Fatal(err)
		}
		want := reunNFD + "/th\u00e9.md"
		if got := res.Changes[0].File; got != want {
			t.Fatalf("created %+q, want %+q", got, want)
		}
		wantFiles(t, dir, "index.md", nfdFile, want)
	})
	t.Run("a move onto another spelling is in the way", func(t *testing.T) {
		_, err := w.Move(ctx, wiki.MoveRequest{Path: "index", NewPath: reunNFC + "/" + cafeNFC, Mutation: wiki.Mutation{Caller: cli}})
		wantCode(t, err, wiki.CodeAlreadyExists)
	})
	t.Run("a move to the name in form C renames it", func(t *testing.T) {
		res, err := w.Move(ctx, wiki.MoveRequest{Path: reunNFC + "/" + cafeNFC, NewPath: cafeNFC, Mutation: wiki.Mutation{Caller: cli}})
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Changes[0]; c.Action != wiki.ActionMoved || c.File != cafeNFC+".md" {
			t.Fatalf("change %+v", c)
		}
		wantFiles(t, dir, "index.md", reunNFD+"/th\u00e9.md", cafeNFC+".md")
	})
	t.Run("a folder moves to its name in form C", func(t *testing.T) {
		if _, err := w.Move(ctx, wiki.MoveRequest{Path: reunNFC + "/", NewPath: reunNFC, Mutation: wiki.Mutation{Caller: cli}}); err != nil {
			t.Fatal(err)
		}
		wantFiles(t, dir, "index.md", reunNFC+"/th\u00e9.md", cafeNFC+".md")
	})
}

// TestWiki_BothNormalizationForms is a repository that already holds both
// spellings as two files: each exact spelling reaches its own file.
func TestWiki_BothNormalizationForms(t *testing.T) {
	dir := seeded(t, map[string]string{cafeNFC + ".md": "composed\n", cafeNFD + ".md": "decomposed\n"})
	w := openWiki(t, dir, nil)
	if _, content := readContent(t, w, cafeNFC); content != "composed\n" {
		t.Errorf("form C read %q", content)
	}
	if _, content := readContent(t, w, cafeNFD); content != "decomposed\n" {
		t.Errorf("form D read %q", content)
	}
	_, err := w.Read(context.Background(), wiki.ReadRequest{Path: "Caf\u00e9"})
	wantCode(t, err, wiki.CodeAmbiguous)
}

// TestWiki_Apply_NormalizationFormsInOneBatch creates a note in form D and
// edits it in form C in the same batch: one file.
func TestWiki_Apply_NormalizationFormsInOneBatch(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"index.md": "# Home\n"})
	w := openWiki(t, dir, nil)
	_, err := w.Apply(ctx, wiki.ApplyRequest{Changes: []wiki.Change{
		{Write: &wiki.WriteRequest{Path: cafeNFD, Content: "# Café\n"}},
		{Edit: &wiki.EditRequest{Path: cafeNFC, Edits: []note.Edit{{Op: note.OpAppend, Content: "More."}}}},
	}, Mutation: wiki.Mutation{Caller: cli}})
	if err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md", cafeNFC+".md")
}

// TestWiki_PortableNames refuses new names that Windows could not check
// out or that pass for another, and keeps existing notes with such names
// working.
func TestWiki_PortableNames(t *testing.T) {
	ctx := context.Background()
	existing := map[string]string{"index.md": "# Home\n", "a:b.md": "colon\n", "con.md": "device\n", "why?.md": "question\n"}
	dir := seeded(t, existing)
	w := openWiki(t, dir, nil)

	refused := map[string]string{
		"x:y":               `':' is not allowed in a name on Windows`,
		"C:notes":           `starts with "C:", which Windows reads as drive C:`,
		"notes/aux":         `"aux" is the name of a device on Windows`,
		"Nul.txt":           `"Nul" is the name of a device on Windows`,
		"what*":             `'*' is not allowed in a name on Windows`,
		"\ufeffnotes":       "U+FEFF BYTE ORDER MARK",
		"invoice\u202efdp":  "U+202E RIGHT-TO-LEFT OVERRIDE",
		"a\u2066b\u2069":    "U+2066 LEFT-TO-RIGHT ISOLATE",
		"C:/Users/x/notes":  "is an absolute Windows path",
		"notes/x\u200b.pdf": "U+200B ZERO WIDTH SPACE",
	}
	for p, want := range refused {
		_, err := w.Write(ctx, write(p, "x\n"))
		wantCode(t, err, wiki.CodeInvalidPath)
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Write(%+q) = %v, want it to say %s", p, err, want)
		}
		_, err = w.Move(ctx, wiki.MoveRequest{Path: "index", NewPath: p, Mutation: wiki.Mutation{Caller: cli}})
		if wiki.CodeOf(err) != wiki.CodeInvalidPath || !strings.Contains(err.Error(), want) {
			t.Errorf("Move(index, %+q) = %v, want INVALID_PATH saying %s", p, err, want)
		}
	}
	_, err := w.Move(ctx, wiki.MoveRequest{Path: "index", NewPath: "archive/index", Mutation: wiki.Mutation{Caller: cli}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Move(ctx, wiki.MoveRequest{Path: "archive/", NewPath: "Q&A: archive", Mutation: wiki.Mutation{Caller: cli}})
	if wiki.CodeOf(err) != wiki.CodeInvalidPath || !strings.Contains(err.Error(), `':' is not allowed in a name on Windows`) {
		t.Errorf("folder move to a name with ':' = %v", err)
	}

	for _, p := range []string{"a:b", "con", "why?"} {
		if _, content := readContent(t, w, p); content != existing[p+".md"] {
			t.Errorf("Read(%q) = %q", p, content)
		}
		over := write(p, "changed\n")
		over.Overwrite = true
		if _, err := w.Write(ctx, over); err != nil {
			t.Errorf("Write(%q) over an existing note: %v", p, err)
		}
	}
	if _, err := w.Move(ctx, wiki.MoveRequest{Path: "a:b", NewPath: "a-b", Mutation: wiki.Mutation{Caller: cli}}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "archive/index.md", "a-b.md", "con.md", "why?.md")
}

// TestWiki_ComposedNoteReadAsDecomposed creates a note in form C, then
// names it as a macOS file system may give its name back, in form D (a
// path completed by the shell, or copied from Finder): read, edit and
// delete reach the one note, and the file keeps its name in form C.
func TestWiki_ComposedNoteReadAsDecomposed(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"index.md": "# Home\n"})
	w := openWiki(t, dir, nil)
	nfc, nfd := reunNFC+"/"+cafeNFC, reunNFD+"/"+cafeNFD
	if _, err := w.Write(ctx, write(nfc, "# Café\n")); err != nil {
		t.Fatal(err)
	}
	if file, content := readContent(t, w, nfd); file != nfc+".md" || content != "# Café\n" {
		t.Errorf("Read(%+q) = %+q, %q; want %+q", nfd, file, content, nfc+".md")
	}
	if _, err := w.Edit(ctx, wiki.EditRequest{Path: nfd + ".md", Edits: []note.Edit{{Op: note.OpAppend, Content: "Edited."}},
		Mutation: wiki.Mutation{Caller: cli}}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md", nfc+".md")
	if _, err := w.Delete(ctx, wiki.DeleteRequest{Path: nfd, Confirm: true, Mutation: wiki.Mutation{Caller: cli}}); err != nil {
		t.Fatal(err)
	}
	wantFiles(t, dir, "index.md")
}
