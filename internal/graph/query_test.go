package graph

import (
	"context"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// lines renders backlinks as "source:line,line" strings.
func lines(bs []wiki.Backlink) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		ls := make([]string, len(b.Links))
		for i, l := range b.Links {
			ls[i] = fmt.Sprint(l.Line)
		}
		out = append(out, b.Path+":"+strings.Join(ls, ","))
	}
	return out
}

func TestGraph_Backlinks(t *testing.T) {
	g := fixture(t)
	tests := []struct {
		path string
		want []string
	}{
		{"projects/alpha/plan", []string{
			"journal/2024-03-12:15", "journal/2024/2024-01-15:15", "journal/2024/2024-01-16:16",
			"journal/2024/2024-03-10:14", "projects/alpha/decisions:18", "projects/alpha/meeting-notes:39",
			"projects/alpha/overview:31,32,32,37", "reference/glossary:16", "reference/links-edge-cases:9",
		}},
		// by bare name, with a label, and by markdown links in angle
		// brackets and percent-encoded
		{"areas/café", []string{
			"areas/finance/budget:13", "areas/health/sleep:12", "inbox/quick-capture:10", "index:31",
			"reference/links-edge-cases:27,28",
		}},
		// by alias (Alice) and by path
		{"people/alice", []string{
			"areas/café:7", "inbox/quick-capture:9", "index:13,24", "journal/2024-03-11:11",
			"journal/2024/2024-01-15:12", "projects/alpha/decisions:14", "projects/alpha/meeting-notes:7",
			"projects/alpha/overview:21,43", "projects/alpha/plan:40", "reference/markdown-syntax:46",
		}},
		// [[overview]] in projects/beta/overview is itself: not a backlink
		{"projects/beta/overview", []string{
			"index:18", "journal/2024-03-11:12", "people/alice:16", "people/carol-nguyen:9", "projects/beta/risks:23",
		}},
		{"archive/old-project", []string{}},
		// missing notes: who still links to them
		{"people/dave", []string{"journal/2024/2024-01-16:12"}},
		{"projects/alpha/spec", []string{"journal/2024/2024-01-16:13"}},
		{"missing-note", []string{"journal/2024/2024-01-16:15"}},
		{"nothing/here", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := lines(g.Backlinks(tt.path)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Backlinks(%q) =\n%q\nwant\n%q", tt.path, got, tt.want)
			}
		})
	}
	t.Run("context", func(t *testing.T) {
		bs := g.Backlinks("projects/alpha/plan")
		got := bs[len(bs)-1].Links[0]
		want := wiki.LinkSite{Line: 9, Kind: "wiki", Target: "plan", Heading: "Risks#Technical", Context: "- Nested heading: [[plan#Risks#Technical]]"}
		if got != want {
			t.Errorf("last backlink = %+v, want %+v", got, want)
		}
	})
	// BacklinksLined reads the notes whose lines it shows, and no other.
	t.Run("lined", func(t *testing.T) {
		g := fixture(t)
		all := g.Backlinks("projects/alpha/plan")
		for _, n := range []int{0, 1, 2, len(all) + 1} {
			reads := 0
			g.ReadBlobsWith(func(ctx context.Context, id string) ([]byte, error) {
				reads++
				return readBlob(ctx, id)
			})
			got := g.BacklinksLined("projects/alpha/plan", n)
			if reads != min(n, len(all)) {
				t.Errorf("BacklinksLined(%d) read %d notes", n, reads)
			}
			for i, b := range got {
				want := all[i]
				if i >= n {
					want.Links = slices.Clone(want.Links)
					for j := range want.Links {
						want.Links[j].Context = ""
					}
				}
				if !reflect.DeepEqual(b, want) {
					t.Errorf("BacklinksLined(%d)[%d] = %+v, want %+v", n, i, b, want)
				}
			}
		}
	})
	// A note whose blob cannot be read shows its links without their
	// lines, and the rest as before.
	t.Run("unreadable", func(t *testing.T) {
		g := fixture(t)
		calls := 0
		g.ReadBlobsWith(func(context.Context, string) ([]byte, error) {
			calls++
			return nil, fs.ErrNotExist
		})
		bs := g.Backlinks("projects/alpha/plan")
		got := bs[len(bs)-1].Links[0]
		want := wiki.LinkSite{Line: 9, Kind: "wiki", Target: "plan", Heading: "Risks#Technical"}
		if got != want {
			t.Errorf("last backlink = %+v, want %+v", got, want)
		}
		if calls != len(bs) {
			t.Errorf("%d reads for %d linking notes, want one each", calls, len(bs))
		}
	})
}

// outs renders outgoing links as "line target -> path (broken)".
func outs(ls []wiki.OutLink) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		s := fmt.Sprintf("%d %s", l.Line, l.Target)
		if l.Heading != "" {
			s += "#" + l.Heading
		}
		s += " ->"
		if l.Path != "" {
			s += " " + l.Path
		}
		if l.Broken != "" {
			s += " (" + l.Broken + ")"
		}
		out = append(out, s)
	}
	return out
}

func TestGraph_Outlinks(t *testing.T) {
	g := fixture(t)
	tests := []struct {
		path string
		want []string
	}{
		{"areas/finance/budget", []string{
			"12 taxes 2024 -> areas/finance/taxes 2024",
			"13 café -> areas/café",
			"18 Project Alpha#Goals -> projects/alpha/overview",
			"20 taxes 2024.md -> areas/finance/taxes 2024",
			"20 ../health/running.md -> areas/health/running",
			"22 ../../assets/image.png -> assets/image.png",
		}},
		{"journal/2024/2024-01-16", []string{
			"11 Project Gamma -> (no such note)",
			"12 people/dave -> (no such note)",
			"12 areas/finance/budget#Storage -> areas/finance/budget",
			"13 ../../projects/alpha/spec.md -> (no such note)",
			"14 diagram.png -> (no such file)",
			"15 missing-note#Summary -> (no such note)",
			"16 plan#No such heading -> projects/alpha/plan (no such heading)",
		}},
		// the nearest overview is the note itself; [[roadmap]] is the .mdx
		{"projects/beta/overview", []string{
			"11 Alpha -> projects/alpha/overview",
			"14 roadmap -> projects/beta/roadmap",
			"14 risks -> projects/beta/risks",
			"15 projects/alpha/overview -> projects/alpha/overview",
			"15 overview -> projects/beta/overview",
			"19 Carol Nguyen -> people/carol-nguyen",
		}},
		{"nothing/here", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := outs(g.Outlinks(tt.path)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Outlinks(%q) =\n%q\nwant\n%q", tt.path, got, tt.want)
			}
		})
	}
}

func TestGraph_BrokenLinks(t *testing.T) {
	g := fixture(t)
	var got []string
	for _, b := range g.BrokenLinks("") {
		got = append(got, fmt.Sprintf("%s:%d %s (%s)", b.Path, b.Line, b.Target, b.Reason))
	}
	want := []string{
		"journal/2024/2024-01-16:11 Project Gamma (no such note)",
		"journal/2024/2024-01-16:12 people/dave (no such note)",
		"journal/2024/2024-01-16:13 ../../projects/alpha/spec.md (no such note)",
		"journal/2024/2024-01-16:14 diagram.png (no such file)",
		"journal/2024/2024-01-16:15 missing-note (no such note)",
		"journal/2024/2024-01-16:16 plan (no such heading)",
		"projects/beta/roadmap:20 a link (no such note)",
		"reference/links-edge-cases:10 glossary (no block ^definition-1)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BrokenLinks =\n%q\nwant\n%q", got, want)
	}
	if got := g.BrokenLinks("journal/2024/2024-01-16"); len(got) != 0 {
		t.Errorf("BrokenLinks of a note path as folder = %v, want none", got)
	}
	if got := len(g.BrokenLinks("journal")); got != 6 {
		t.Errorf("BrokenLinks(journal) has %d links, want 6", got)
	}
	// A page reads the lines of its links only, the same lines; a page
	// out of range reads none.
	all := g.BrokenLinks("")
	for _, pg := range [][2]int{{2, 7}, {0, 0}, {7, 20}, {-3, 1}} {
		page := g.BrokenLinksPage("", func(got []wiki.BrokenLink) (int, int) {
			if len(got) != len(all) {
				t.Errorf("the page chooses among %d links, want %d", len(got), len(all))
			}
			return pg[0], pg[1]
		})
		for i := range all {
			want := all[i]
			if i < pg[0] || i >= pg[1] {
				want.Context = ""
			}
			if page[i] != want {
				t.Errorf("page %v: link %d = %+v, want %+v", pg, i, page[i], want)
			}
		}
	}
}

func TestGraph_Orphans(t *testing.T) {
	g := fixture(t)
	var got []string
	for _, n := range g.Orphans("archive") {
		got = append(got, n.Path)
	}
	want := []string{"archive/bom", "archive/not-frontmatter", "archive/old-project", "archive/unclosed-frontmatter", "archive/yaml-anchors"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Orphans(archive) = %q, want %q", got, want)
	}
	for _, n := range g.Orphans("") {
		if len(g.Backlinks(n.Path)) != 0 {
			t.Errorf("orphan %s has backlinks", n.Path)
		}
	}
}

func TestGraph_Lookup(t *testing.T) {
	g := fixture(t)
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"Decision Log", "projects/alpha/decisions", true},
		{"decision log", "projects/alpha/decisions", true},
		{"AM", "people/alice", true},
		{"overview", "projects/alpha/overview", true}, // same depth: the first file
		{"beta/overview", "projects/beta/overview", true},
		{"/index", "index", true},
		{"projects/beta/roadmap.mdx", "projects/beta/roadmap", true},
		{"nobody", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := g.ResolveName(tt.name)
			if ok != tt.ok || got.Path != tt.want {
				t.Errorf("ResolveName(%q) = %q, %v; want %q, %v", tt.name, got.Path, ok, tt.want, tt.ok)
			}
		})
	}
	if _, ok := g.Lookup("People/Alice"); ok {
		t.Error("Lookup is exact, but People/Alice was found")
	}
	if n, ok := g.Lookup("people/alice"); !ok || n.Title != "Alice Martin" {
		t.Errorf("Lookup(people/alice) = %+v, %v", n, ok)
	}
}
