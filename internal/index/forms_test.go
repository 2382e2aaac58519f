package index

import (
	"context"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// formsFixture returns notes in English, German (by its frontmatter, too
// short to tell otherwise), French and Japanese.
func formsFixture() []wiki.Document {
	return []wiki.Document{
		{Path: "en/one", Title: "Extending the app", Body: "A plugin adds a feature to the app. You can turn off any plugin when you do not need it.\n"},
		{Path: "en/many", Title: "Extending the app", Body: "Plugins add features to the app. You can turn off all plugins when you do not need them.\n"},
		{Path: "en/core", Title: "Core plugins", Body: "The list of what ships with the app, and what each of them is for.\n"},
		{Path: "en/sync", Title: "Sync", Body: "Your notes were synced to the server while you were syncing the other vault.\n"},
		{Path: "de/notizen", Title: "Ablage", Body: "Die Notizen liegen in Ordnern.\n",
			Properties: map[string][]string{"lang": {"de"}}},
		{Path: "fr/fichiers", Title: "Fichiers", Body: "Les fichiers sont dans le coffre, et chaque fichier est un document texte que vous pouvez ouvrir.\n"},
		{Path: "ja/note", Title: "ノートの作成", Body: "新しいノートを作成するには、コマンドを使います。\n"},
	}
}

func openForms(tb testing.TB) *Index {
	tb.Helper()
	x, _ := openTest(tb)
	apply(tb, x, "c1", formsFixture(), nil)
	return x
}

func TestIndex_Search_forms(t *testing.T) {
	x := openForms(t)
	tests := []struct {
		query string
		want  []string
	}{
		// A word finds its other forms, in the note's language.
		{"plugin", []string{"en/one", "en/many", "en/core"}},
		{"plugins", []string{"en/one", "en/many", "en/core"}},
		{"sync", []string{"en/sync"}},
		{"syncs", []string{"en/sync"}},
		{"notiz", []string{"de/notizen"}},
		{"ordner", []string{"de/notizen"}},
		{"fichier", []string{"fr/fichiers"}},
		{"title:plugin", []string{"en/core"}},
		{"-plugin", []string{"en/sync", "de/notizen", "fr/fichiers", "ja/note"}},
		// Quoted words and phrases, prefixes: as written.
		{`"plugins"`, []string{"en/many", "en/core"}},
		{`"plugin"`, []string{"en/one"}},
		{`"notiz"`, nil},
		{`title:"plugin"`, nil},
		{`"synced to"`, []string{"en/sync"}},
		{`"sync to"`, nil},
		{"plugin*", []string{"en/one", "en/many", "en/core"}},
		{"syncing*", []string{"en/sync"}},
		{"synce*", []string{"en/sync"}},
		{"syncs*", nil},
		// CJK as before: the bigrams of the word, anywhere in a run.
		{"ノート", []string{"ja/note"}},
		{"作成", []string{"ja/note"}},
		{"ノー", []string{"ja/note"}},
		{"ノートの", []string{"ja/note"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			want := slices.Clone(tt.want)
			if want == nil {
				want = []string{}
			}
			slices.Sort(want)
			if got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100})); !slices.Equal(got, want) {
				t.Errorf("paths = %q, want %q", got, want)
			}
		})
	}
}

// TestIndex_Search_formsRank checks that a note holding the word as
// written ranks above one holding another form of it.
func TestIndex_Search_formsRank(t *testing.T) {
	x := openForms(t)
	for _, tt := range []struct{ query, first, second string }{
		{"plugin", "en/one", "en/many"},
		{"plugins", "en/many", "en/one"},
	} {
		res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100})
		got := paths(res)
		if i, j := slices.Index(got, tt.first), slices.Index(got, tt.second); i < 0 || j < 0 || i > j {
			t.Errorf("%s: hits %q, want %s before %s", tt.query, got, tt.first, tt.second)
		}
	}
}

// TestIndex_Search_formsSnippets checks that snippets mark the forms of a
// word that matched, and only of words that are not negated.
func TestIndex_Search_formsSnippets(t *testing.T) {
	x := openForms(t)
	tests := []struct {
		query, path string
		want        []wiki.Snippet
	}{
		{"plugin", "en/many", []wiki.Snippet{{Line: 1, Text: "«Plugins» add features to the app. You can turn off all «plugins» when you do not need them."}}},
		{"plugins", "en/one", []wiki.Snippet{{Line: 1, Text: "A «plugin» adds a feature to the app. You can turn off any «plugin» when you do not need it."}}},
		{`"plugins" app`, "en/many", []wiki.Snippet{{Line: 1, Text: "«Plugins» add features to the «app». You can turn off all «plugins» when you do not need them."}}},
		{"sync", "en/sync", []wiki.Snippet{{Line: 1, Text: "Your notes were «synced» to the server while you were «syncing» the other vault."}}},
		{"notiz", "de/notizen", []wiki.Snippet{{Line: 1, Text: "Die «Notizen» liegen in Ordnern."}}},
		{"fichier", "fr/fichiers", []wiki.Snippet{{Line: 1, Text: "Les «fichiers» sont dans le coffre, et chaque «fichier» est un document texte que vous pouvez ouvrir."}}},
		{"feature OR -plugins", "en/one", []wiki.Snippet{{Line: 1, Text: "A plugin adds a «feature» to the app. You can turn off any plugin when you do not need it."}}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			res := find(t, x, wiki.SearchRequest{Query: parse(t, tt.query), Limit: 100, Snippets: 3})
			for _, h := range res.Results {
				if h.Path == tt.path {
					if !slices.Equal(h.Snippets, tt.want) {
						t.Errorf("snippets =\n%+v\nwant\n%+v", h.Snippets, tt.want)
					}
					return
				}
			}
			t.Fatalf("no hit %s in %q", tt.path, paths(res))
		})
	}
}

// TestIndex_langs checks that the index records the stem languages of its
// notes, keeps them across a reopen, and forgets them on Reset.
func TestIndex_langs(t *testing.T) {
	ctx := context.Background()
	x, _ := openTest(t)
	apply(t, x, "c1", formsFixture(), nil)
	want := []string{"de", "en", "fr", langNone}
	if got := x.langs.get(); !slices.Equal(got, want) {
		t.Fatalf("langs = %q, want %q", got, want)
	}
	dir := x.dir
	if err := x.Close(ctx); err != nil {
		t.Fatal(err)
	}
	y, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close(ctx)
	if got := y.langs.get(); !slices.Equal(got, want) {
		t.Errorf("langs after reopen = %q, want %q", got, want)
	}
	if got := sortedPaths(find(t, y, wiki.SearchRequest{Query: parse(t, "notiz")})); !slices.Equal(got, []string{"de/notizen"}) {
		t.Errorf("notiz after reopen = %q", got)
	}
	if err := y.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if got := y.langs.get(); len(got) != 0 {
		t.Errorf("langs after reset = %q, want none", got)
	}
}

// TestIndex_Apply_lang checks the language a note is stored with, and that
// a note changing language leaves the stem fields of the other.
func TestIndex_Apply_lang(t *testing.T) {
	x, _ := openTest(t)
	apply(t, x, "c1", formsFixture(), nil)
	d := formsFixture()[4] // German by its frontmatter
	d.Properties = map[string][]string{"lang": {"fr"}}
	d.Body = "Les notes sont rangées dans des dossiers.\n"
	apply(t, x, "c2", []wiki.Document{d}, nil)
	for q, want := range map[string][]string{
		"notiz":   {},
		"dossier": {"de/notizen"},
	} {
		if got := sortedPaths(find(t, x, wiki.SearchRequest{Query: parse(t, q)})); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
}
