package web

import (
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

func TestSnippetHTML(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"wiki link with label", "see [[projects/plan|the «plan»]] now", "see the <mark>plan</mark> now"},
		{"wiki link", "see [[«plan»]] now", "see <mark>plan</mark> now"},
		{"wiki link to a heading", "see [[plan#Risks]]", "see plan › Risks"},
		{"match in the hidden target", "see [[«plan»|the roadmap]]", "see <mark>the roadmap</mark>"},
		{"embed", "![[chart.png]] here", "chart.png here"},
		{"markdown link", "read [the «docs»](https://example.com/a/b?c=d) first", "read the <mark>docs</mark> first"},
		{"match in a link's URL", "read [the docs](https://«example».com/) first", "read <mark>the docs</mark> first"},
		{"image", "![a «chart»](img/c.png)", "a <mark>chart</mark>"},
		{"bare URL", "at https://www.example.com/very/long/path?x=1 and on", "at example.com and on"},
		{"bare URL with a match", "at https://docs.example.com/«beta»/notes.", "at <mark>docs.example.com</mark>."},
		{"link cut by the snippet", "…the plan|roadmap]] and [[peo", "…the plan|roadmap and peo"},
		{"heading", "# «Project» 1", "<mark>Project</mark> 1"},
		{"emphasis", "a **«bold»** move", "a <mark>bold</mark> move"},
		{"escaped", "<b>«x»</b> & y", "&lt;b&gt;<mark>x</mark>&lt;/b&gt; &amp; y"},
		{"a mark cut in two", "«open and » close»", "<mark>open and </mark> close"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(snippetHTML(tc.in)); got != tc.want {
				t.Errorf("snippetHTML(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	for _, tt := range []struct {
		f    wiki.DiffFile
		want string
	}{
		{wiki.DiffFile{File: "people/ada.md", Change: wiki.ChangeModified}, "people/ada.md"},
		{wiki.DiffFile{File: "my notes/x y.md", Change: wiki.ChangeAdded}, "my notes/x y.md"},
		{wiki.DiffFile{File: "new.md", OldFile: "old.md", Change: wiki.ChangeRenamed}, "old.md → new.md"},
	} {
		if got := fileName(tt.f); got != tt.want {
			t.Errorf("fileName(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}
