package web

import "testing"

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

func TestDiffHeader(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a/people/ada.md b/people/ada.md", "people/ada.md"},
		{"a/my notes/x y.md b/my notes/x y.md", "my notes/x y.md"},
		{"a/old.md b/new.md", "old.md → new.md"},
		{"odd", "odd"},
	} {
		if got := diffHeader(tt.in); got != tt.want {
			t.Errorf("diffHeader(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
