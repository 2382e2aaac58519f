package wiki_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/wiki"
)

// TestWiki_MoveKeepsAttachmentLinks moves a note that links to images and
// a PDF by relative markdown links and a relative embed: the note at its
// new path holds the paths from its new folder, and nothing is broken
// before or after, in both resolutions.
func TestWiki_MoveKeepsAttachmentLinks(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{
		"attachments/a.png":        "\x89PNG\r\n\x1a\n",
		"attachments/my image.png": "\x89PNG\r\n\x1a\n",
		"docs/spec.pdf":            "%PDF-1.4\n",
		"notes/n.md": "# N\n\n![](../attachments/a.png)\n![alt](<../attachments/my image.png>)\n" +
			"[spec](../docs/spec.pdf \"the spec\") ![[../attachments/a.png]]\n",
		"index.md": "# Home\n\n[n](notes/n.md) ![](attachments/a.png)\n",
	}
	want := "# N\n\n![](../../attachments/a.png)\n![alt](<../../attachments/my image.png>)\n" +
		"[spec](../../docs/spec.pdf \"the spec\") ![[../../attachments/a.png]]\n"
	for _, r := range []wiki.LinkResolution{wiki.ResolveWiki, wiki.ResolveObsidian} {
		t.Run(string(r), func(t *testing.T) {
			dir := seeded(t, files)
			w := openWikiWith(t, dir, nil, io.Discard, graph.NewResolving(r))
			broken, err := w.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if broken.Total != 0 {
				t.Fatalf("%d broken links before the move, the first %+v", broken.Total, broken.Links[0])
			}
			// the four links are links to the files, not text
			var files []string
			for _, o := range gitGraphResolving(t, dir, r).Outlinks("notes/n") {
				files = append(files, o.Path)
			}
			if got, want := strings.Join(files, ", "), "attachments/a.png, attachments/my image.png, docs/spec.pdf, attachments/a.png"; got != want {
				t.Errorf("notes/n links to %s, want %s", got, want)
			}
			if _, err := w.Move(ctx, wiki.MoveRequest{Path: "notes/n", NewPath: "archive/2024/n", Mutation: wiki.Mutation{Caller: cli}}); err != nil {
				t.Fatal(err)
			}
			checkRepo(t, dir)
			now := gitFiles(t, dir)
			if got := now["archive/2024/n.md"]; got != want {
				t.Errorf("archive/2024/n.md at HEAD =\n%s\nwant\n%s", got, want)
			}
			if got := now["index.md"]; !strings.Contains(got, "[n](archive/2024/n.md) ![](attachments/a.png)") {
				t.Errorf("index.md at HEAD =\n%s", got)
			}
			broken, err = w.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if broken.Total != 0 {
				t.Errorf("%d broken links after the move, the first %+v", broken.Total, broken.Links[0])
			}
			if b := gitGraphResolving(t, dir, r).BrokenLinks(""); len(b) != 0 {
				t.Errorf("%d broken links in a graph built from HEAD, the first %+v", len(b), b[0])
			}
		})
	}
}
