package note

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// outline renders headings as "line #.. text", one per heading.
func outline(hs []Heading) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = fmt.Sprintf("%d %s %s", h.Line, strings.Repeat("#", h.Level), h.Text)
	}
	return out
}

func scan(tb testing.TB, src string) body {
	tb.Helper()
	b := scanBody([]byte(src), 0, 1)
	checkBody(tb, []byte(src), 0, 1, b)
	return b
}

func TestScanBody_Headings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"none", "just text\nmore text\n", nil},
		{"empty", "", nil},
		{"atx levels", "# A\n## B\n### C\n#### D\n##### E\n###### F\n", []string{
			"1 # A", "2 ## B", "3 ### C", "4 #### D", "5 ##### E", "6 ###### F"}},
		{"seven hashes is text", "####### seven\n", nil},
		{"no space after hash is text", "#NoSpace\n", nil},
		{"closing hashes stripped", "## closing #s ##\n", []string{"1 ## closing #s"}},
		{"closing hashes need a blank", "# foo#\n", []string{"1 # foo#"}},
		{"escaped closing hash kept", "# foo \\#\n", []string{"1 # foo \\#"}},
		{"text trimmed", "#   spaced   out   \n", []string{"1 # spaced   out"}},
		{"tab after hashes", "#\tTab\n", []string{"1 # Tab"}},
		{"empty heading", "#\n## ##\n", []string{"1 # ", "2 ## "}},
		{"three spaces indent", "   ### indented\n", []string{"1 ### indented"}},
		{"four spaces indent is code", "    # code\n", nil},
		{"no newline at end", "text\n# Last", []string{"2 # Last"}},
		{"setext level 1", "Title\n=====\n", []string{"1 # Title"}},
		{"setext level 2", "intro\n\nSub\n---\ntext\n", []string{"3 ## Sub"}},
		{"setext one char underline", "Sub\n-\n", []string{"1 ## Sub"}},
		{"setext underline with trailing blanks", "Sub\n===   \n", []string{"1 # Sub"}},
		{"setext multi-line paragraph", "Foo\n  bar\n===\n", []string{"1 # Foo bar"}},
		{"thematic break after blank line", "para\n\n---\n", nil},
		{"thematic break at start", "---\ntext\n", nil},
		{"dashes under atx heading are a break", "# A\n---\n", []string{"1 # A"}},
		{"dashes under list item are a break", "- item\n---\n", nil},
		{"dashes under lazy list line are a break", "- item\nlazy\n---\n", nil},
		{"equals under list item are text", "- item\n===\n", nil},
		{"dashes under list paragraph are a break", "- item\n\n    para\n---\n", nil},
		{"dashes under indented list paragraph are a break", "- item\n\n  para\n---\n", nil},
		{"dashes under quote are a break", "> quote\n---\n", nil},
		{"spaced dashes are a break", "Foo\n- - -\n", nil},
		{"equals alone are text", "===\n", nil},
		{"setext after fence is a break", "```\ncode\n```\n---\n", nil},
		{"dashes under table are a row", "| a | b |\n|---|---|\n| 1 | 2 |\n---\n", nil},
		{"list item interrupts paragraph", "Text\n1. item\n---\n", nil},
		{"other ordered number does not interrupt", "In the year\n2024. we\n===\n", []string{"1 # In the year 2024. we"}},
		{"empty item does not interrupt", "Text\n-\n", []string{"1 ## Text"}},
		{"backtick fence hides", "```\n# not\n```\n# yes\n", []string{"4 # yes"}},
		{"tilde fence with info hides", "~~~ python {x}\n# not\n~~~\n# yes\n", []string{"4 # yes"}},
		{"info with backtick is no fence", "``` a`b\n# yes\n", []string{"2 # yes"}},
		{"shorter run does not close", "````\n```\n# not\n````\n# yes\n", []string{"5 # yes"}},
		{"other char does not close", "```\n~~~\n# not\n```\n# yes\n", []string{"5 # yes"}},
		{"closing run with trailing text does not close", "```\n``` x\n# not\n```\n# yes\n", []string{"5 # yes"}},
		{"unclosed fence runs to end", "# yes\n```\n# not\n", []string{"1 # yes"}},
		{"indented fence", "   ```\n# not\n   ```\n# yes\n", []string{"4 # yes"}},
		{"fence interrupts paragraph", "text\n```\n# not\n```\n", nil},
		{"fence in list item", "- item\n\n    ```\n    # not\n    ```\n# yes\n", []string{"6 # yes"}},
		{"indented code after blank", "para\n\n    # not\n\n# yes\n", []string{"5 # yes"}},
		{"indented code at start", "    # not\n# yes\n", []string{"2 # yes"}},
		{"indented code with tab", "\t# not\n", nil},
		{"html comment block hides", "<!--\n# not\n-->\n# yes\n", []string{"4 # yes"}},
		{"one-line html comment", "<!-- c -->\n# yes\n", []string{"2 # yes"}},
		{"unclosed html comment runs to end", "# yes\n<!--\n# not\n", []string{"1 # yes"}},
		{"quoted heading is not a section", "> # quoted\n", nil},
		{"crlf", "# A\r\ntext\r\n\r\nB\r\n---\r\n", []string{"1 # A", "4 ## B"}},
		{"setext takes the whole paragraph", "# A\ntext\nB\n---\n", []string{"1 # A", "2 ## text B"}},
		{"crlf closing fence", "```\r\n# not\r\n```\r\n# yes\r\n", []string{"4 # yes"}},
		{"stray carriage return in text", "# a\rb\n", []string{"1 # a b"}},
		{"unicode", "# Café ☕ 日本語\n", []string{"1 # Café ☕ 日本語"}},
		{"invalid utf-8 kept", "# a\xffb\n", []string{"1 # a\xffb"}},
		{"duplicates kept", "# A\n## A\n# A\n", []string{"1 # A", "2 ## A", "3 # A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outline(scan(t, tt.src).Headings)
			if !slices.Equal(got, tt.want) {
				t.Errorf("headings of %q\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestScanBody_Sections(t *testing.T) {
	type span struct {
		start, content, end string // text at Start, at ContentStart, at End ("" for EOF)
		parent              int
	}
	tests := []struct {
		name string
		src  string
		want []span
	}{
		{"tree",
			"# A\nintro\n## B\ntext\n### C\ndeep\n## D\n# E\ntail\n",
			[]span{
				{"# A", "intro", "# E", -1},
				{"## B", "text", "## D", 0},
				{"### C", "deep", "## D", 1},
				{"## D", "# E", "# E", 0},
				{"# E", "tail", "", -1},
			}},
		{"skipped level",
			"# A\n### C\n## B\n",
			[]span{
				{"# A", "### C", "", -1},
				{"### C", "## B", "## B", 0},
				{"## B", "", "", 0},
			}},
		{"deeper before shallower",
			"### C\n# A\n## B\n",
			[]span{
				{"### C", "# A", "# A", -1},
				{"# A", "## B", "", -1},
				{"## B", "", "", 1},
			}},
		{"setext",
			"intro\n\nTitle\n=====\nbody\n\nSub\n---\nmore\n",
			[]span{
				{"Title\n=", "body", "", -1},
				{"Sub\n-", "more", "", 0},
			}},
		{"no final newline", "# A", []span{{"# A", "", "", -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := scan(t, tt.src).Headings
			if len(hs) != len(tt.want) {
				t.Fatalf("got %d headings %q, want %d", len(hs), outline(hs), len(tt.want))
			}
			at := func(off int) string {
				if off == len(tt.src) {
					return ""
				}
				return tt.src[off:]
			}
			for i, w := range tt.want {
				h := hs[i]
				if !strings.HasPrefix(at(h.Start), w.start) || !strings.HasPrefix(at(h.ContentStart), w.content) ||
					(w.end == "") != (h.End == len(tt.src)) || !strings.HasPrefix(at(h.End), w.end) || h.Parent != w.parent {
					t.Errorf("heading %d %q: start %q content %q end %q parent %d; want %q %q %q %d",
						i, h.Text, at(h.Start), at(h.ContentStart), at(h.End), h.Parent, w.start, w.content, w.end, w.parent)
				}
				if (w.content == "") != (h.ContentStart == len(tt.src)) {
					t.Errorf("heading %d ContentStart = %d, len %d", i, h.ContentStart, len(tt.src))
				}
			}
		})
	}
}

func TestScanBody_Start(t *testing.T) {
	// A body after a frontmatter block: nothing before start is scanned,
	// and line numbers count from startLine.
	src := "---\ntitle: x #nottag [[NotLink]]\n---\n# Body #tag\nsee [[Link]]\n"
	start := strings.Index(src, "# Body")
	b := scanBody([]byte(src), start, 4)
	checkBody(t, []byte(src), start, 4, b)
	if got, want := outline(b.Headings), []string{"4 # Body #tag"}; !slices.Equal(got, want) {
		t.Errorf("headings = %q, want %q", got, want)
	}
	if len(b.Links) != 1 || b.Links[0].Target != "Link" || b.Links[0].Line != 5 {
		t.Errorf("links = %+v, want Link on line 5", b.Links)
	}
	if !slices.Equal(b.Tags, []string{"tag"}) {
		t.Errorf("tags = %q, want [tag]", b.Tags)
	}
	if h := b.Headings[0]; h.Start != start || h.End != len(src) {
		t.Errorf("heading range = [%d, %d), want [%d, %d)", h.Start, h.End, start, len(src))
	}

	if got, want := scanBody([]byte(src), -5, 1), scanBody([]byte(src), 0, 1); !slices.Equal(outline(got.Headings), outline(want.Headings)) {
		t.Errorf("start -5: headings %q, want those from start 0 %q", outline(got.Headings), outline(want.Headings))
	}
	for _, start := range []int{len(src), len(src) + 10} {
		if b := scanBody([]byte(src), start, 1); len(b.Headings)+len(b.Links)+len(b.Tags) != 0 {
			t.Errorf("scanBody(start=%d) = %+v, want nothing", start, b)
		}
	}
}

func TestScanBody_AfterFrontmatter(t *testing.T) {
	for _, le := range []string{"\n", "\r\n"} {
		src := strings.ReplaceAll("---\ntitle: T\ntags: [a]\n---\n# Body #inline\n\nSee [[Link]].\n\nSub\n---\n", "\n", le)
		n := Parse("n", []byte(src))
		if n.Frontmatter == nil {
			t.Skipf("frontmatter not parsed (error %v)", n.FrontmatterErr)
		}
		// Without the frontmatter, "tags: [a]" above "---" would be a
		// setext heading.
		if got, want := outline(n.Headings), []string{"5 # Body #inline", "9 ## Sub"}; !slices.Equal(got, want) {
			t.Errorf("%q: headings = %q, want %q", le, got, want)
		}
		if len(n.Links) != 1 || n.Links[0].Line != 7 || n.Links[0].Target != "Link" {
			t.Errorf("%q: links = %+v, want Link on line 7", le, n.Links)
		}
		if !n.HasTag("a") || !n.HasTag("inline") {
			t.Errorf("%q: tags = %v, want a and inline", le, n.Tags)
		}
	}
}
