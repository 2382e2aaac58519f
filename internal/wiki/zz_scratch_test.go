package wiki_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestScratch(t *testing.T) {
	ctx := context.Background()
	dir := fixtureRepo(t, "basic")
	w := openWiki(t, dir, nil)
	w.Reindex(ctx, false, nil)
	p := func(v any, err error) { b, _ := json.MarshalIndent(v, "", " "); fmt.Println(string(b), err) }
	p(w.List(ctx, wiki.ListRequest{}))
	p(w.List(ctx, wiki.ListRequest{Path: "projects", Recursive: true, Sort: "modified"}))
	p(w.Resolve(ctx, wiki.ResolveRequest{Names: []string{"alice", "Project Alpha", "overview", "budgte", "index"}, Strategy: "fuzzy"}))
	p(w.Resolve(ctx, wiki.ResolveRequest{Names: []string{"alice", "Project Alpha", "overview", "budget", "index", "people/alice"}}))
	p(w.Status(ctx))
}
