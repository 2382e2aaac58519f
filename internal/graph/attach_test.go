package graph

import (
	"reflect"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// attachFiles is a wiki whose notes link to attachments with markdown
// links and images, and with wiki embeds.
var attachFiles = map[string]string{
	"attachments/a.png":          "png",
	"attachments/my image.png":   "png",
	"docs/spec.pdf":              "pdf",
	"notes/img/a.png":            "png",
	"notes/n.md":                 "# N\n\n![](../attachments/a.png) ![alt](<../attachments/my image.png>)\n[spec](../docs/spec.pdf) ![](img/a.png)\n![](../attachments/missing.png) [x](spec.pdf) ![[a.png]]\n",
	"notes/sub/deep.md":          "![](../../attachments/my%20image.png \"title\") [[../../docs/spec.pdf]] ![[./local.png]]\n",
	"notes/sub/local.png":        "png",
	"root.md":                    "![](attachments/a.png) ![](./docs/spec.pdf) [up](../outside.png) [n](notes/n.md)\n",
	"attachments/readme.txt.md":  "# a note whose name has a dot\n",
	"attachments/link-to-txt.md": "[t](readme.txt.md) [u](readme.txt)\n",
}

func TestGraph_AttachmentLinks(t *testing.T) {
	out := map[string][]string{
		"notes/n": {
			"3 ../attachments/a.png -> attachments/a.png",
			"3 ../attachments/my image.png -> attachments/my image.png",
			"4 ../docs/spec.pdf -> docs/spec.pdf",
			"4 img/a.png -> notes/img/a.png",
			"5 ../attachments/missing.png -> (no such file)",
			"5 spec.pdf -> (no such file)",
			"5 a.png -> notes/img/a.png", // of two, the one in the note's folder
		},
		"notes/sub/deep": {
			"1 ../../attachments/my image.png -> attachments/my image.png",
			"1 ../../docs/spec.pdf -> docs/spec.pdf",
			"1 ./local.png -> notes/sub/local.png",
		},
		"root": {
			"1 attachments/a.png -> attachments/a.png",
			"1 ./docs/spec.pdf -> docs/spec.pdf",
			"1 ../outside.png -> (no such file)",
			"1 notes/n.md -> notes/n",
		},
		"attachments/link-to-txt": {
			"1 readme.txt.md -> attachments/readme.txt",
			"1 readme.txt -> (no such file)",
		},
	}
	broken := []string{
		"attachments/link-to-txt:1 readme.txt (no such file)",
		"notes/n:5 ../attachments/missing.png (no such file)",
		"notes/n:5 spec.pdf (no such file)",
		"root:1 ../outside.png (no such file)",
	}
	for _, r := range []wiki.LinkResolution{wiki.ResolveObsidian, wiki.ResolveWiki} {
		t.Run(string(r), func(t *testing.T) {
			g := NewResolving(r)
			g.ApplyFiles("c1", wikiFiles(attachFiles), nil)
			for p, want := range out {
				if p == "notes/n" && r == wiki.ResolveObsidian {
					// Obsidian finds a markdown path that names no file by
					// its file name, as in a wiki link
					want = slices.Clone(want)
					want[5] = "5 spec.pdf -> docs/spec.pdf"
				}
				if got := outs(g.Outlinks(p)); !reflect.DeepEqual(got, want) {
					t.Errorf("Outlinks(%s) =\n%q\nwant\n%q", p, got, want)
				}
			}
			want := broken
			if r == wiki.ResolveObsidian {
				want = slices.DeleteFunc(slices.Clone(broken), func(b string) bool { return b == "notes/n:5 spec.pdf (no such file)" })
			}
			if got := brokenList(g.BrokenLinks("")); !reflect.DeepEqual(got, want) {
				t.Errorf("BrokenLinks =\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestGraph_ObsidianMarkdownFileByName: in the Obsidian resolution a
// markdown link whose path names no file or note takes one with its name,
// also one added later, and a patched graph equals a rebuilt one.
func TestGraph_ObsidianMarkdownFileByName(t *testing.T) {
	files := map[string]string{"notes/n.md": "![](a.png) [s](spec.pdf) [t](t.md)\n", "t.txt": "x"}
	g := NewResolving(wiki.ResolveObsidian)
	g.ApplyFiles("c1", wikiFiles(files), nil)
	added := map[string]string{"attachments/a.png": "png", "docs/spec.pdf": "pdf", "t.md": "# T\n"}
	g.ApplyFiles("c2", wikiFiles(added), nil)
	want := []string{"1 a.png -> attachments/a.png", "1 spec.pdf -> docs/spec.pdf", "1 t.md -> t"}
	if got := outs(g.Outlinks("notes/n")); !reflect.DeepEqual(got, want) {
		t.Errorf("Outlinks(notes/n) after the files are added =\n%q\nwant\n%q", got, want)
	}
	for f, c := range added {
		files[f] = c
	}
	rebuilt := NewResolving(wiki.ResolveObsidian)
	rebuilt.ApplyFiles("c2", wikiFiles(files), nil)
	if got, want := outs(g.Outlinks("notes/n")), outs(rebuilt.Outlinks("notes/n")); !reflect.DeepEqual(got, want) {
		t.Errorf("patched %q, rebuilt %q", got, want)
	}
}

func TestGraph_AttachmentAppears(t *testing.T) {
	g := New()
	g.ApplyFiles("c1", wikiFiles(attachFiles), nil)
	g.ApplyFiles("c2", wikiFiles(map[string]string{"attachments/missing.png": "png"}), nil)
	want := []string{
		"attachments/link-to-txt:1 readme.txt (no such file)",
		"notes/n:5 spec.pdf (no such file)",
		"root:1 ../outside.png (no such file)",
	}
	if got := brokenList(g.BrokenLinks("")); !reflect.DeepEqual(got, want) {
		t.Errorf("BrokenLinks once missing.png is added =\n%q\nwant\n%q", got, want)
	}
	g.ApplyFiles("c3", nil, []string{"attachments/a.png"})
	want = []string{
		"attachments/link-to-txt:1 readme.txt (no such file)",
		"notes/n:3 ../attachments/a.png (no such file)",
		"notes/n:5 spec.pdf (no such file)",
		"root:1 attachments/a.png (no such file)",
		"root:1 ../outside.png (no such file)",
	}
	if got := brokenList(g.BrokenLinks("")); !reflect.DeepEqual(got, want) {
		t.Errorf("BrokenLinks once a.png is deleted =\n%q\nwant\n%q", got, want)
	}
}

func TestGraph_AttachmentRelinks(t *testing.T) {
	tests := []struct {
		name  string
		moves map[string]string
		want  []string
		// wiki is what the wiki way adds: Obsidian still finds a relative
		// path that leaves the root or names no file by its end
		wiki []string
	}{
		{"to another folder", map[string]string{"notes/n": "archive/2024/n"}, []string{
			"notes/n:3 ../attachments/a.png -> ../../attachments/a.png",
			"notes/n:3 ../attachments/my image.png -> ../../attachments/my image.png",
			"notes/n:4 ../docs/spec.pdf -> ../../docs/spec.pdf",
			"notes/n:4 img/a.png -> ../../notes/img/a.png",
			"root:1 notes/n.md -> archive/2024/n.md",
		}, []string{
			// the wiki way, the nearest a.png is no longer in the note's folder
			"notes/n:5 a.png -> img/a.png",
		}},
		{"to the root, percent-encoded and wiki relative paths", map[string]string{"notes/sub/deep": "deep"}, []string{
			"notes/sub/deep:1 ../../attachments/my%20image.png -> attachments/my%20image.png",
		}, []string{
			"notes/sub/deep:1 ../../docs/spec.pdf -> docs/spec.pdf",
			"notes/sub/deep:1 ./local.png -> ./notes/sub/local.png",
		}},
		{"within the folder", map[string]string{"notes/n": "notes/renamed"}, []string{"root:1 notes/n.md -> notes/renamed.md"}, nil},
	}
	for _, r := range []wiki.LinkResolution{wiki.ResolveObsidian, wiki.ResolveWiki} {
		for _, tt := range tests {
			t.Run(string(r)+"/"+tt.name, func(t *testing.T) {
				g := NewResolving(r)
				g.ApplyFiles("c1", wikiFiles(attachFiles), nil)
				rel := g.Relinks(tt.moves)
				want := tt.want
				if r == wiki.ResolveWiki {
					want = append(slices.Clone(want), tt.wiki...)
					slices.Sort(want)
				}
				if got := edits(rel); !reflect.DeepEqual(got, want) {
					t.Errorf("Relinks(%v) =\n%q\nwant\n%q", tt.moves, got, want)
				}
				after := NewResolving(r)
				after.ApplyFiles("c2", wikiFiles(applyRelinks(t, attachFiles, tt.moves, rel)), nil)
				before := brokenList(g.BrokenLinks(""))
				if got := brokenList(after.BrokenLinks("")); !reflect.DeepEqual(got, movedList(before, tt.moves)) {
					t.Errorf("BrokenLinks after the move =\n%q\nwant the ones before\n%q", got, before)
				}
			})
		}
	}
}

// movedList returns broken links of brokenList with the notes moved.
func movedList(bs []string, moves map[string]string) []string {
	out := []string{}
	for _, b := range bs {
		for from, to := range moves {
			if len(b) > len(from) && b[:len(from)] == from && b[len(from)] == ':' {
				b = to + b[len(from):]
			}
		}
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}
