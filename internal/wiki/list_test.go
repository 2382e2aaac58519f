package wiki_test

import (
	"context"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_List_Fixture(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	w := openWiki(t, dir, nil)
	notes := fixtureNotes(t, dir)

	// oracle lists the fixture's notes under folder (recursively or not)
	// that keep accepts, and counts them per subfolder, from the files on
	// disk parsed by the note package.
	oracle := func(folder string, recursive bool, keep func(*note.Note) bool) (paths []string, folders map[string]int) {
		folders = map[string]int{}
		for _, n := range notes {
			rel, ok := strings.CutPrefix(n.Path, folder+"/")
			if folder == "" {
				rel, ok = n.Path, true
			}
			if !ok || !keep(n) {
				continue
			}
			dirs := strings.Split(rel, "/")
			dirs = dirs[:len(dirs)-1]
			for i := range dirs {
				if i == 0 || recursive {
					folders[path.Join(folder, strings.Join(dirs[:i+1], "/"))]++
				}
			}
			if len(dirs) == 0 || recursive {
				paths = append(paths, n.Path)
			}
		}
		slices.SortFunc(paths, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		return paths, folders
	}
	all := func(*note.Note) bool { return true }

	tests := []struct {
		name string
		req  wiki.ListRequest
		keep func(*note.Note) bool
	}{
		{"root", wiki.ListRequest{}, all},
		{"root recursive", wiki.ListRequest{Recursive: true, Limit: 200}, all},
		{"folder", wiki.ListRequest{Path: "projects/alpha"}, all},
		{"folder with trailing slash", wiki.ListRequest{Path: "projects/"}, all},
		{"folder recursive", wiki.ListRequest{Path: "journal", Recursive: true}, all},
		{"tag", wiki.ListRequest{Path: "projects", Recursive: true, Tag: "project/alpha"}, func(n *note.Note) bool { return n.HasTag("project/alpha") }},
		{"nested tag", wiki.ListRequest{Recursive: true, Tag: "Project"}, func(n *note.Note) bool { return n.HasTag("project") }},
		{"tag counts folders", wiki.ListRequest{Tag: "person"}, func(n *note.Note) bool { return n.HasTag("person") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := w.List(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			folder := strings.Trim(tt.req.Path, "/")
			wantPaths, wantFolders := oracle(folder, tt.req.Recursive, tt.keep)
			if len(wantPaths)+len(wantFolders) == 0 {
				t.Fatal("the oracle found nothing: the test would not test anything")
			}
			var gotPaths []string
			for _, n := range res.Notes {
				gotPaths = append(gotPaths, n.Path)
			}
			if !slices.Equal(gotPaths, wantPaths) || res.Total != len(wantPaths) || res.NextCursor != "" {
				t.Errorf("notes %v (total %d, cursor %q)\nwant  %v", gotPaths, res.Total, res.NextCursor, wantPaths)
			}
			gotFolders := map[string]int{}
			for i, f := range res.Folders {
				gotFolders[f.Path] = f.Notes
				if i > 0 && res.Folders[i-1].Path >= f.Path {
					t.Errorf("folders out of order: %v", res.Folders)
				}
			}
			if !mapsEqual(gotFolders, wantFolders) {
				t.Errorf("folders %v\nwant    %v", gotFolders, wantFolders)
			}
			if res.Path != folder {
				t.Errorf("path %q, want %q", res.Path, folder)
			}
		})
	}

	t.Run("summaries", func(t *testing.T) {
		res, err := w.List(ctx, wiki.ListRequest{})
		if err != nil {
			t.Fatal(err)
		}
		created := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
		modified := time.Date(2024, 3, 12, 9, 30, 0, 0, time.UTC)
		if len(res.Notes) != 1 {
			t.Fatalf("notes %+v", res.Notes)
		}
		n := res.Notes[0]
		if n.Path != "index" || n.Title != "Home" || !slices.Equal(n.Tags, []string{"index", "moc"}) ||
			n.Created == nil || !n.Created.Equal(created) || n.Modified == nil || !n.Modified.Equal(modified) {
			t.Errorf("index summary %+v", n)
		}
		if res.Note != nil {
			t.Errorf("the root has no note of its own, got %+v", res.Note)
		}
	})

	t.Run("pages", func(t *testing.T) {
		want, _ := oracle("", true, all)
		for _, sort := range []string{"alpha", "modified", "created"} {
			var got []string
			cursor := ""
			for page := 0; ; page++ {
				res, err := w.List(ctx, wiki.ListRequest{Recursive: true, Limit: 7, Cursor: cursor, Sort: sort})
				if err != nil {
					t.Fatal(err)
				}
				if res.Total != len(want) || len(res.Notes) > 7 {
					t.Fatalf("%s page %d: total %d, %d notes", sort, page, res.Total, len(res.Notes))
				}
				if page > 0 && (len(res.Folders) > 0 || res.Note != nil) {
					t.Errorf("%s page %d repeats the folders", sort, page)
				}
				for _, n := range res.Notes {
					got = append(got, n.Path)
				}
				if cursor = res.NextCursor; cursor == "" {
					break
				}
			}
			if sort == "alpha" && !slices.Equal(got, want) {
				t.Errorf("alpha pages %v\nwant %v", got, want)
			}
			slices.Sort(got)
			sorted := slices.Clone(want)
			slices.Sort(sorted)
			if !slices.Equal(got, sorted) {
				t.Errorf("%s pages hold %v\nwant %v", sort, got, sorted)
			}
		}
	})
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestWiki_List_Sort(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"b.md":       "---\nmodified: 2024-05-01\ncreated: 2023-01-01\n---\n# B\n",
		"a.md":       "---\nmodified: 2024-03-01\ncreated: 2023-06-01\n---\n# A\n",
		"C.md":       "---\nmodified: 2024-04-01T10:00:00+02:00\ncreated: 2022-01-01\n---\n# C\n",
		"d.md":       "---\nmodified: 2024-04-01T08:30:00Z\ncreated: 2022-01-01\n---\n# D\n",
		"plain.md":   "# Plain\n",
		"sub/x.md":   "# X\n",
		"assets/i.x": "not a note",
	})
	gittest.Commit(t, dir, "touch plain", map[string]string{"plain.md": "# Plain\n\nmore\n"})
	w := openWiki(t, dir, nil)
	if err := w.Reindex(ctx, false, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sort string
		want []string
	}{
		{"", []string{"a", "b", "C", "d", "plain"}},
		{"alpha", []string{"a", "b", "C", "d", "plain"}},
		// plain has no dates in its frontmatter: its commits give them,
		// and they are later than every frontmatter date here.
		{"modified", []string{"plain", "b", "d", "C", "a"}},
		{"created", []string{"plain", "a", "b", "C", "d"}},
	}
	for _, tt := range tests {
		t.Run("sort "+tt.sort, func(t *testing.T) {
			res, err := w.List(ctx, wiki.ListRequest{Sort: tt.sort})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range res.Notes {
				got = append(got, n.Path)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if len(res.Folders) != 1 || res.Folders[0] != (wiki.FolderSummary{Path: "sub", Notes: 1}) {
				t.Errorf("folders %+v: the assets folder holds no note", res.Folders)
			}
		})
	}

	t.Run("times from commits", func(t *testing.T) {
		res, err := w.List(ctx, wiki.ListRequest{})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(res.Notes, func(n wiki.NoteSummary) bool { return n.Path == "plain" })
		plain := res.Notes[i]
		dates := strings.Fields(gittest.Git(t, dir, "log", "--format=%cI", "--", "plain.md"))
		modified, _ := time.Parse(time.RFC3339, dates[0])
		created, _ := time.Parse(time.RFC3339, dates[len(dates)-1])
		if plain.Modified == nil || !plain.Modified.Equal(modified) || plain.Created == nil || !plain.Created.Equal(created) {
			t.Errorf("plain: created %v modified %v, want %v and %v from git log", plain.Created, plain.Modified, created, modified)
		}
	})
}

func TestWiki_List_NoteAtFolderPath(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{
		"projects/alpha.md":      "---\ntitle: Alpha home\ntags: [hub]\n---\n",
		"projects/alpha/plan.md": "# Plan\n",
		"projects/alpha/x/y.md":  "# Y\n",
	})
	w := openWiki(t, dir, nil)
	res, err := w.List(ctx, wiki.ListRequest{Path: "projects/alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Note == nil || res.Note.Path != "projects/alpha" || res.Note.Title != "Alpha home" || !slices.Equal(res.Note.Tags, []string{"hub"}) {
		t.Errorf("note at the path: %+v", res.Note)
	}
	if len(res.Notes) != 1 || res.Notes[0].Path != "projects/alpha/plan" || res.Notes[0].Title != "Plan" {
		t.Errorf("notes %+v", res.Notes)
	}
	if len(res.Folders) != 1 || res.Folders[0] != (wiki.FolderSummary{Path: "projects/alpha/x", Notes: 1}) {
		t.Errorf("folders %+v", res.Folders)
	}
	// The parent lists the note and the folder side by side.
	res, err = w.List(ctx, wiki.ListRequest{Path: "projects"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Note != nil || len(res.Notes) != 1 || res.Notes[0].Path != "projects/alpha" ||
		len(res.Folders) != 1 || res.Folders[0] != (wiki.FolderSummary{Path: "projects/alpha", Notes: 2}) {
		t.Errorf("projects: %+v", res)
	}
	// A note without a folder of that name is listed as the note only.
	res, err = w.List(ctx, wiki.ListRequest{Path: "projects/alpha/plan"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Note == nil || res.Note.Path != "projects/alpha/plan" || len(res.Notes)+len(res.Folders)+res.Total != 0 {
		t.Errorf("plan: %+v", res)
	}
}

func TestWiki_List_Errors(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "# A\n", "b.md": "# B\n"})
	w := openWiki(t, dir, nil)
	first, err := w.List(ctx, wiki.ListRequest{Limit: 1})
	if err != nil || first.NextCursor == "" {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	tests := []struct {
		name string
		req  wiki.ListRequest
		code wiki.Code
	}{
		{"dot dot", wiki.ListRequest{Path: "../x"}, wiki.CodeInvalidPath},
		{"git folder", wiki.ListRequest{Path: ".git"}, wiki.CodeInvalidPath},
		{"unknown sort", wiki.ListRequest{Sort: "size"}, wiki.CodeInvalidParams},
		{"negative limit", wiki.ListRequest{Limit: -1}, wiki.CodeInvalidParams},
		{"garbage cursor", wiki.ListRequest{Cursor: "!!"}, wiki.CodeInvalidParams},
		{"cursor of another sort", wiki.ListRequest{Cursor: first.NextCursor, Sort: "modified"}, wiki.CodeInvalidParams},
		{"missing folder", wiki.ListRequest{Path: "nope"}, wiki.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.List(ctx, tt.req)
			wantCode(t, err, tt.code)
		})
	}
	t.Run("limit above the maximum", func(t *testing.T) {
		res, err := w.List(ctx, wiki.ListRequest{Limit: 10000})
		if err != nil || len(res.Notes) != 2 {
			t.Errorf("got %+v, %v", res, err)
		}
	})
	t.Run("empty wiki", func(t *testing.T) {
		w := openWiki(t, gittest.Init(t), nil)
		res, err := w.List(ctx, wiki.ListRequest{})
		if err != nil || res.Total != 0 || len(res.Notes) != 0 || len(res.Folders) != 0 {
			t.Errorf("got %+v, %v", res, err)
		}
	})
}
