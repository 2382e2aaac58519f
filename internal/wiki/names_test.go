package wiki_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Resolve_Exact(t *testing.T) {
	ctx := context.Background()
	w := openWiki(t, fixtureRepo(t, "basic"), nil)
	m := func(path, title, by string) wiki.NameMatch {
		return wiki.NameMatch{Path: path, Title: title, Score: 1, MatchedBy: by}
	}
	alphaOverview := m("projects/alpha/overview", "Project Alpha", "path")
	tests := []struct {
		name string
		req  wiki.ResolveRequest
		want [][]wiki.NameMatch
	}{
		{"path", wiki.ResolveRequest{Names: []string{"people/alice"}},
			[][]wiki.NameMatch{{m("people/alice", "Alice Martin", "path")}}},
		{"path with extension and other case", wiki.ResolveRequest{Names: []string{"PEOPLE/Alice.md"}},
			[][]wiki.NameMatch{{m("people/alice", "Alice Martin", "path")}}},
		{"the end of a path is no exact match", wiki.ResolveRequest{Names: []string{"alpha/overview", "budget", "plan", "overview"}},
			[][]wiki.NameMatch{{}, {}, {}, {}}},
		{"title", wiki.ResolveRequest{Names: []string{"decision log"}},
			[][]wiki.NameMatch{{m("projects/alpha/decisions", "Decision Log", "title")}}},
		{"title before alias", wiki.ResolveRequest{Names: []string{"Project Alpha"}},
			[][]wiki.NameMatch{{m("projects/alpha/overview", "Project Alpha", "title")}}},
		{"alias", wiki.ResolveRequest{Names: []string{"bobby", "Start Here"}},
			[][]wiki.NameMatch{{m("people/bob", "Bob Okafor", "alias")}, {m("index", "Home", "alias")}}},
		{"no match is no error", wiki.ResolveRequest{Names: []string{"nothing like this", "../x"}},
			[][]wiki.NameMatch{{}, {}}},
		{"folder", wiki.ResolveRequest{Names: []string{"Beta Overview", "Project Alpha"}, Folder: "projects/beta"},
			[][]wiki.NameMatch{{m("projects/beta/overview", "Beta Overview", "title")}, {}}},
		{"tag", wiki.ResolveRequest{Names: []string{"projects/alpha/overview", "people/alice"}, Tag: "project/alpha"},
			[][]wiki.NameMatch{{alphaOverview}, {}}},
		// As a link at the root: the end of a path finds its note.
		{"link", wiki.ResolveRequest{Names: []string{"alpha/overview", "decisions", "nothing"}, Strategy: wiki.ResolveLink},
			[][]wiki.NameMatch{{m("projects/alpha/overview", "Project Alpha", "link")}, {m("projects/alpha/decisions", "Decision Log", "link")}, {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.Resolve(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			checkResolution(t, tt.req.Names, res, tt.want)
		})
	}
}

func checkResolution(t *testing.T, names []string, res *wiki.ResolveResult, want [][]wiki.NameMatch) {
	t.Helper()
	if len(res.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(res.Results), len(want))
	}
	for i, r := range res.Results {
		if r.Name != names[i] || r.Exists != (len(want[i]) > 0) || !reflect.DeepEqual(r.Matches, want[i]) {
			t.Errorf("%q:\n got  %+v\n want %+v", names[i], r, want[i])
		}
	}
}

func TestWiki_Resolve_Fuzzy(t *testing.T) {
	ctx := context.Background()
	w := openWiki(t, seeded(t, map[string]string{
		"recipes/chicken.md": "# Chicken\n",
		"recipes/bulgogi.md": "---\ntitle: Beef bulgogi\naliases: [Bulgogi]\n---\n",
		"recipes/kimchi.md":  "---\ntitle: Napa cabbage\n---\n",
		"a.md":               "x\n",
	}), nil)
	m := func(path, title, by string, score float64) wiki.NameMatch {
		return wiki.NameMatch{Path: path, Title: title, Score: score, MatchedBy: by}
	}
	tests := []struct {
		name string
		req  wiki.ResolveRequest
		want [][]wiki.NameMatch
	}{
		// chikken and chicken share ch, hi, ke, en of six bigrams each: 8/12.
		{"below the default threshold", wiki.ResolveRequest{Names: []string{"chikken"}, Strategy: "fuzzy"}, [][]wiki.NameMatch{{}}},
		{"lower threshold", wiki.ResolveRequest{Names: []string{"chikken"}, Strategy: "fuzzy", Threshold: 0.5},
			[][]wiki.NameMatch{{m("recipes/chicken", "Chicken", "path", 0.667)}}},
		// kimchee: ki im mc ch he ee; kimchi: ki im mc ch hi: 8/11.
		{"base name", wiki.ResolveRequest{Names: []string{"kimchee"}, Strategy: "fuzzy"},
			[][]wiki.NameMatch{{m("recipes/kimchi", "Napa cabbage", "path", 0.727)}}},
		{"base name equal to the name", wiki.ResolveRequest{Names: []string{"bulgogi"}, Strategy: "fuzzy"},
			[][]wiki.NameMatch{{m("recipes/bulgogi", "Beef bulgogi", "path", 1)}}},
		{"title", wiki.ResolveRequest{Names: []string{"napa cabage"}, Strategy: "fuzzy"},
			// napa cabage: 10 bigrams, napa cabbage: 11, 10 shared: 20/21.
			[][]wiki.NameMatch{{m("recipes/kimchi", "Napa cabbage", "title", 0.952)}}},
		{"whole path when the name has a slash", wiki.ResolveRequest{Names: []string{"recipes/chiken"}, Strategy: "fuzzy"},
			// recipes/chiken: 13 bigrams, recipes/chicken: 14, 12 shared: 24/27.
			[][]wiki.NameMatch{{m("recipes/chicken", "Chicken", "path", 0.889)}}},
		{"one character", wiki.ResolveRequest{Names: []string{"A", "b"}, Strategy: "fuzzy"},
			[][]wiki.NameMatch{{m("a", "a", "path", 1)}, {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.Resolve(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			checkResolution(t, tt.req.Names, res, tt.want)
		})
	}
}

func TestWiki_Resolve_Limits(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := 7; i >= 1; i-- {
		files[fmt.Sprintf("n%d.md", i)] = "---\ntitle: Same\n---\n"
	}
	w := openWiki(t, seeded(t, files), nil)
	res, err := w.Resolve(ctx, wiki.ResolveRequest{Names: []string{"same"}})
	if err != nil {
		t.Fatal(err)
	}
	var want []wiki.NameMatch
	for i := 1; i <= wiki.MaxResolveMatches; i++ {
		want = append(want, wiki.NameMatch{Path: fmt.Sprintf("n%d", i), Title: "Same", Score: 1, MatchedBy: "title"})
	}
	checkResolution(t, []string{"same"}, res, [][]wiki.NameMatch{want})

	many := make([]string, wiki.MaxResolveNames+1)
	errs := []struct {
		name string
		req  wiki.ResolveRequest
		code wiki.Code
	}{
		{"no names", wiki.ResolveRequest{}, wiki.CodeInvalidParams},
		{"too many names", wiki.ResolveRequest{Names: many}, wiki.CodeInvalidParams},
		{"semantic", wiki.ResolveRequest{Names: []string{"x"}, Strategy: "semantic"}, wiki.CodeInvalidParams},
		{"unknown strategy", wiki.ResolveRequest{Names: []string{"x"}, Strategy: "soundex"}, wiki.CodeInvalidParams},
		{"threshold above 1", wiki.ResolveRequest{Names: []string{"x"}, Strategy: "fuzzy", Threshold: 1.5}, wiki.CodeInvalidParams},
		{"bad folder", wiki.ResolveRequest{Names: []string{"x"}, Folder: "a/../b"}, wiki.CodeInvalidPath},
	}
	for _, tt := range errs {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.Resolve(ctx, tt.req)
			wantCode(t, err, tt.code)
		})
	}
}
