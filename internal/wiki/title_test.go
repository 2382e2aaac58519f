package wiki_test

import (
	"context"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_Write_titleFromTheNoteCache: the title a change reports comes
// from the note cache, where the stores that apply the commit find the
// same parse, a dry run's too.
func TestWiki_Write_titleFromTheNoteCache(t *testing.T) {
	ctx := context.Background()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
	w := openWiki(t, dir, nil)
	content := "---\ntitle: Zeppelins\n---\nabout airships\n"
	res, err := w.Write(ctx, wiki.WriteRequest{Path: "b", Content: content, Mutation: wiki.Mutation{DryRun: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Title != "Zeppelins" {
		t.Fatalf("changes %+v", res.Changes)
	}
	if !w.Cached("b", []byte(content)) {
		t.Error("the note the title came from is not in the note cache")
	}
}
