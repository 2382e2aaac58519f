package wiki_test

import (
	"context"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Check(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	w, _ := openGraphWiki(t, dir)
	t.Run("fixture", func(t *testing.T) {
		res, err := w.Check(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if res.OK() || len(res.BrokenLinks) != 8 {
			t.Errorf("OK %v with %d broken links, want 8", res.OK(), len(res.BrokenLinks))
		}
		// the fixture's README: malformed YAML, and YAML anchors refused
		var malformed []string
		for _, m := range res.MalformedFrontmatter {
			malformed = append(malformed, m.Path)
			if m.Error == "" {
				t.Errorf("%s: no error text", m.Path)
			}
		}
		if want := []string{"archive/yaml-anchors", "journal/2024/2024-03-10"}; !slices.Equal(malformed, want) {
			t.Errorf("malformed %q, want %q", malformed, want)
		}
		if !slices.ContainsFunc(res.Orphans, func(n wiki.NoteRef) bool { return n.Path == "archive/old-project" }) {
			t.Errorf("archive/old-project is not an orphan: %+v", res.Orphans)
		}
	})
	t.Run("a folder", func(t *testing.T) {
		res, err := w.Check(ctx, "people")
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK() || len(res.Orphans) != 0 {
			t.Errorf("people: %+v", res)
		}
	})
	t.Run("fixed", func(t *testing.T) {
		d := seeded(t, map[string]string{"a.md": "[[b]]\n", "b.md": "---\ntitle: B\n---\n[[a#Nope]]\n"})
		w, _ := openGraphWiki(t, d)
		res, err := w.Check(ctx, "")
		if err != nil || res.OK() || len(res.BrokenLinks) != 1 || res.BrokenLinks[0].Reason != wiki.BrokenNoHeading {
			t.Fatalf("Check = %+v, %v", res, err)
		}
		if _, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: "[[a]]\n", Overwrite: true}); err != nil {
			t.Fatal(err)
		}
		if res, err := w.Check(ctx, ""); err != nil || !res.OK() {
			t.Errorf("after the fix: %+v, %v", res, err)
		}
	})
}
