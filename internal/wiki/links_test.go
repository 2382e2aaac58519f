package wiki_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestWiki_Links(t *testing.T) {
	ctx := context.Background()
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	t.Run("a note", func(t *testing.T) {
		// a case-insensitive path finds the note
		res, err := w.Links(ctx, wiki.LinksRequest{Path: "Projects/Beta/Risks.md", Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Exists || res.Path != "projects/beta/risks" || res.Title != "Beta risks" {
			t.Fatalf("result %+v", res)
		}
		if res.IncomingTotal != 1 || res.Incoming[0].Path != "projects/beta/overview" || res.Incoming[0].Links[0].Line != 14 ||
			res.Incoming[0].Links[0].Context != "See the [[roadmap]] and the [[risks|risk list]]. The other project's overview" {
			t.Errorf("incoming %+v", res.Incoming)
		}
		if res.OutgoingTotal != 3 || len(res.Outgoing) != 2 || res.Outgoing[0].Path != "projects/alpha/overview" {
			t.Errorf("outgoing (limit 2) %+v of %d", res.Outgoing, res.OutgoingTotal)
		}
		if len(res.Neighbors) != 1 || res.Neighbors[0].Total != 3 || len(res.Neighbors[0].Notes) != 2 || res.Neighbors[0].Notes[0].Content != "" {
			t.Errorf("neighbors %+v", res.Neighbors)
		}
	})
	t.Run("depth and content", func(t *testing.T) {
		res, err := w.Links(ctx, wiki.LinksRequest{Path: "areas/health/sleep", Direction: wiki.DirIn, Depth: 2, IncludeContent: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Outgoing) != 0 || len(res.Neighbors) != 2 || res.Neighbors[1].Total != 4 {
			t.Fatalf("result %+v", res)
		}
		n := res.Neighbors[0].Notes[0]
		if n.Path != "areas/health/running" || n.Via != "areas/health/sleep" || n.Direction != wiki.DirIn ||
			len([]rune(n.Content)) != wiki.NeighborChars || !n.Truncated {
			t.Errorf("neighbor %+v", n)
		}
	})
	t.Run("a missing note", func(t *testing.T) {
		res, err := w.Links(ctx, wiki.LinksRequest{Path: "people/dave"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Exists || res.IncomingTotal != 1 || res.Incoming[0].Path != "journal/2024/2024-01-16" || len(res.Outgoing) != 0 {
			t.Errorf("result %+v", res)
		}
	})
	for _, tt := range []struct {
		name string
		req  wiki.LinksRequest
		code wiki.Code
	}{
		{"bad direction", wiki.LinksRequest{Path: "index", Direction: "up"}, wiki.CodeInvalidParams},
		{"too deep", wiki.LinksRequest{Path: "index", Depth: wiki.MaxLinksDepth + 1}, wiki.CodeInvalidParams},
		{"negative limit", wiki.LinksRequest{Path: "index", Limit: -1}, wiki.CodeInvalidParams},
		{"bad path", wiki.LinksRequest{Path: "../x"}, wiki.CodeInvalidPath},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := w.Links(ctx, tt.req)
			wantCode(t, err, tt.code)
		})
	}
}

func TestWiki_FindPath(t *testing.T) {
	ctx := context.Background()
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	res, err := w.FindPath(ctx, wiki.PathRequest{Source: "areas/health/sleep", Target: "projects/alpha/plan"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range res.Path {
		got = append(got, n.Path)
	}
	want := []string{"areas/health/sleep", "areas/café", "people/alice", "projects/alpha/decisions", "projects/alpha/plan"}
	if !res.Found || res.Length != 4 || !slices.Equal(got, want) || res.Path[1].Title != "Café Lumière" {
		t.Errorf("FindPath = %+v", res)
	}
	res, err = w.FindPath(ctx, wiki.PathRequest{Source: "areas/health/sleep", Target: "projects/alpha/plan", MaxDepth: 3})
	if err != nil || res.Found || len(res.Path) != 0 {
		t.Errorf("FindPath with max depth 3 = %+v, %v", res, err)
	}
	_, err = w.FindPath(ctx, wiki.PathRequest{Source: "index", Target: "people/dave"})
	wantCode(t, err, wiki.CodeNotFound)
	_, err = w.FindPath(ctx, wiki.PathRequest{Source: "index", Target: "index", Direction: "sideways"})
	wantCode(t, err, wiki.CodeInvalidParams)
}

func TestWiki_Hubs(t *testing.T) {
	ctx := context.Background()
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	res, err := w.Hubs(ctx, wiki.HubsRequest{Folder: "people", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != wiki.HubInDegree || len(res.Hubs) != 2 || res.Hubs[0].Path != "people/alice" || res.Hubs[0].Score != 10 || res.Hubs[1].Path != "people/carol-nguyen" {
		t.Errorf("Hubs = %+v", res)
	}
	res, err = w.Hubs(ctx, wiki.HubsRequest{Metric: wiki.HubPageRank})
	if err != nil || len(res.Hubs) != wiki.DefaultHubsLimit || res.Hubs[0].Path != "projects/alpha/overview" {
		t.Errorf("PageRank hubs = %+v, %v", res, err)
	}
	_, err = w.Hubs(ctx, wiki.HubsRequest{Metric: "closeness"})
	wantCode(t, err, wiki.CodeInvalidParams)
}

func TestWiki_FindBrokenLinks(t *testing.T) {
	ctx := context.Background()
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	var all []string
	req := wiki.BrokenLinksRequest{Limit: 3, IncludeOrphans: true}
	for page := 0; ; page++ {
		res, err := w.FindBrokenLinks(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 8 {
			t.Errorf("total %d, want 8", res.Total)
		}
		if (page == 0) != (res.OrphansTotal > 0) {
			t.Errorf("page %d has %d orphans", page, res.OrphansTotal)
		}
		for _, l := range res.Links {
			all = append(all, fmt.Sprintf("%s:%d", l.Path, l.Line))
		}
		if res.NextCursor == "" {
			break
		}
		req.Cursor = res.NextCursor
	}
	want := []string{"journal/2024/2024-01-16:11", "journal/2024/2024-01-16:12", "journal/2024/2024-01-16:13",
		"journal/2024/2024-01-16:14", "journal/2024/2024-01-16:15", "journal/2024/2024-01-16:16",
		"projects/beta/roadmap:20", "reference/links-edge-cases:10"}
	if !slices.Equal(all, want) {
		t.Errorf("pages gave %q, want %q", all, want)
	}
	_, err := w.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Cursor: "nonsense"})
	wantCode(t, err, wiki.CodeInvalidParams)
}

func TestWiki_ReadBacklinks(t *testing.T) {
	ctx := context.Background()
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	res, err := w.Read(ctx, wiki.ReadRequest{Path: "areas/café", MetadataOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range res.Backlinks {
		for _, l := range b.Links {
			got = append(got, fmt.Sprintf("%s:%d %s", b.Path, l.Line, l.Context))
		}
	}
	want := []string{
		"areas/finance/budget:13 | Coffee      | 120   | [[café]]                       |",
		"areas/health/sleep:12 - Caffeine after 14:00 hurts (see [[café]])",
		"inbox/quick-capture:10 - Book a table at [[café]]",
		"index:31 - [[café|Coffee corner]]",
		"reference/links-edge-cases:27 - Angle brackets: [café](<../areas/café.md>)",
		"reference/links-edge-cases:28 - Percent-encoded: [café again](../areas/caf%C3%A9.md)",
	}
	if !slices.Equal(got, want) || res.Content != "" {
		t.Errorf("backlinks\n%q\nwant\n%q", got, want)
	}
	if res, err := w.Read(ctx, wiki.ReadRequest{Path: "areas/café"}); err != nil || res.Backlinks != nil {
		t.Errorf("a full read lists backlinks: %v, %v", res.Backlinks, err)
	}
}

// TestWiki_ReadBacklinks_Hub: a metadata-only read of a note that many
// notes link to lists the first ReadBacklinks of them, by path, with
// their lines, and counts the others.
func TestWiki_ReadBacklinks_Hub(t *testing.T) {
	dir := gittest.Init(t)
	files := map[string]string{"hub.md": "# Hub\n"}
	for i := range wiki.ReadBacklinks + 7 {
		files[fmt.Sprintf("days/%03d.md", i)] = fmt.Sprintf("# Day %d\n\nsee [[hub]]\n", i)
	}
	gittest.Commit(t, dir, "days", files)
	w, _ := openGraphWiki(t, dir)
	res, err := w.Read(context.Background(), wiki.ReadRequest{Path: "hub", MetadataOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Backlinks) != wiki.ReadBacklinks || res.MoreBacklinks != 7 {
		t.Fatalf("%d backlinks and %d more, want %d and 7", len(res.Backlinks), res.MoreBacklinks, wiki.ReadBacklinks)
	}
	for i, b := range res.Backlinks {
		if want := fmt.Sprintf("days/%03d", i); b.Path != want || len(b.Links) != 1 || b.Links[0].Line != 3 || b.Links[0].Context != "see [[hub]]" {
			t.Errorf("backlink %d: %+v, want %s line 3 with its context", i, b, want)
		}
	}
}

func TestWiki_SearchLinkFields(t *testing.T) {
	w, _ := openGraphWiki(t, fixtureRepo(t, "basic"))
	if err := w.Reindex(context.Background(), false, nil); err != nil { // wait for the first build
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    wiki.SearchParams
		want []string
	}{
		// [[Decision Log]] is a link by title; the index alone would not
		// know where it goes
		{"links: by title", wiki.SearchParams{Query: `links:"Decision Log"`},
			[]string{"index", "journal/2024/2024-02-01", "people/alice", "projects/alpha/overview", "reference/links-edge-cases"}},
		{"links: by path", wiki.SearchParams{Query: "links:projects/alpha/decisions"},
			[]string{"index", "journal/2024/2024-02-01", "people/alice", "projects/alpha/overview", "reference/links-edge-cases"}},
		{"backlinks_to", wiki.SearchParams{BacklinksTo: "projects/beta/risks"}, []string{"projects/beta/overview"}},
		{"linkedfrom:", wiki.SearchParams{Query: "linkedfrom:projects/beta/risks"},
			[]string{"people/carol-nguyen", "projects/alpha/overview", "projects/beta/overview"}},
		{"links: a missing note", wiki.SearchParams{Query: "links:people/dave"}, []string{"journal/2024/2024-01-16"}},
		{"links: prefix", wiki.SearchParams{Query: "links:projects/beta/r*"},
			[]string{"index", "projects/beta/overview", "reference/links-edge-cases"}},
		{"links: nothing", wiki.SearchParams{Query: "links:archive/old-project"}, []string{}},
		// linked from the home page, but not linking to Alice
		{"negated", wiki.SearchParams{Query: "linkedfrom:index -links:people/alice"},
			[]string{"people/alice", "projects/beta/overview", "projects/beta/roadmap", "people/bob", "people/carol-nguyen",
				"people/田中太郎", "areas/health/running", "areas/finance/budget", "areas/finance/taxes 2024"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.Limit = 50
			if tt.p.Sort == "" {
				tt.p.Sort = "title"
			}
			got := searchPaths(t, w, tt.p)
			slices.Sort(got)
			slices.Sort(tt.want)
			if !slices.Equal(got, tt.want) {
				t.Errorf("search %+v = %q, want %q", tt.p, got, tt.want)
			}
		})
	}
}

func TestWiki_GraphFollowsHead(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "[[b]]\n", "b.md": "# B\n"})
	w, g := openGraphWiki(t, dir)
	links := func() []string {
		res, err := w.Links(ctx, wiki.LinksRequest{Path: "b"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range res.Incoming {
			out = append(out, b.Path)
		}
		return out
	}
	if got := links(); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("backlinks of b = %q", got)
	}
	gittest.Commit(t, dir, "by hand", map[string]string{"c.md": "[[b]] and [[B]]\n"})
	if got := links(); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("after a commit by hand: %q", got)
	}
	// history rewritten: the graph is rebuilt
	gittest.Git(t, dir, "reset", "-q", "--hard", "HEAD~1")
	gittest.Commit(t, dir, "other", map[string]string{"d.md": "[[b]]\n"})
	if got := links(); !slices.Equal(got, []string{"a", "d"}) {
		t.Errorf("after a rewrite: %q", got)
	}
	sameGraph(t, g, gitGraph(t, dir), []string{"a", "b", "c", "d"})
}
