package note

import (
	"slices"
	"testing"
)

// linkRow is a link as the tests compare it: its fields and the bytes its
// two ranges cover; a markdown image has the kind imageRow.
type linkRow struct {
	Line    int
	Kind    LinkKind
	Target  string
	Heading string
	Label   string
	Source  string // src[Start:End]
	Raw     string // src[TargetStart:TargetEnd]
}

// imageRow is the kind of a linkRow of a markdown link with Embed set.
const imageRow LinkKind = "markdown image"

func linkRows(src string, ls []Link) []linkRow {
	var rows []linkRow
	for _, l := range ls {
		kind := l.Kind
		if l.Embed {
			kind = imageRow
		}
		rows = append(rows, linkRow{l.Line, kind, l.Target, l.Heading, l.Label, src[l.Start:l.End], src[l.TargetStart:l.TargetEnd]})
	}
	return rows
}

func TestScanBody_Links(t *testing.T) {
	const w, e, m, im = LinkWiki, LinkEmbed, LinkMarkdown, imageRow
	tests := []struct {
		name string
		src  string
		want []linkRow
	}{
		{"wikilink", "see [[Target]] now", []linkRow{{1, w, "Target", "", "", "[[Target]]", "Target"}}},
		{"label", "[[Target|the label]]", []linkRow{{1, w, "Target", "", "the label", "[[Target|the label]]", "Target"}}},
		{"heading", "[[Target#Some Heading]]", []linkRow{{1, w, "Target", "Some Heading", "", "[[Target#Some Heading]]", "Target"}}},
		{"heading and label", "[[Target#H|l]]", []linkRow{{1, w, "Target", "H", "l", "[[Target#H|l]]", "Target"}}},
		{"same note heading", "[[#Heading]]", []linkRow{{1, w, "", "Heading", "", "[[#Heading]]", ""}}},
		{"path target", "[[projects/wiki-ai/ideas]]", []linkRow{{1, w, "projects/wiki-ai/ideas", "", "", "[[projects/wiki-ai/ideas]]", "projects/wiki-ai/ideas"}}},
		{"trimmed", "[[  spaced target  #  h  |  l  ]]", []linkRow{{1, w, "spaced target", "h", "l", "[[  spaced target  #  h  |  l  ]]", "spaced target"}}},
		{"second pipe in label", "[[a|b|c]]", []linkRow{{1, w, "a", "", "b|c", "[[a|b|c]]", "a"}}},
		{"escaped pipe in table", "| [[a\\|b]] | c |", []linkRow{{1, w, "a", "", "b", "[[a\\|b]]", "a"}}},
		{"embed", "![[embed]]", []linkRow{{1, e, "embed", "", "", "![[embed]]", "embed"}}},
		{"embed image", "x ![[image.png|300]]", []linkRow{{1, e, "image.png", "", "300", "![[image.png|300]]", "image.png"}}},
		{"several", "[[a]] and [[b]]![[c]]", []linkRow{
			{1, w, "a", "", "", "[[a]]", "a"}, {1, w, "b", "", "", "[[b]]", "b"}, {1, e, "c", "", "", "![[c]]", "c"}}},
		{"extra bracket after", "[[a]]]", []linkRow{{1, w, "a", "", "", "[[a]]", "a"}}},
		{"inner link wins", "[[a [[b]]", []linkRow{{1, w, "b", "", "", "[[b]]", "b"}}},
		{"empty", "[[]] [[ ]] [[|x]] [[#]]", nil},
		{"unclosed", "[[a] [[b", nil},
		{"across lines", "[[a\nb]]", nil},
		{"escaped", "\\[[a]]", nil},
		{"unicode", "[[日本語のノート]] [[Café#Menü|ü]]", []linkRow{
			{1, w, "日本語のノート", "", "", "[[日本語のノート]]", "日本語のノート"},
			{1, w, "Café", "Menü", "ü", "[[Café#Menü|ü]]", "Café"}}},

		{"markdown", "[label](path.md)", []linkRow{{1, m, "path.md", "", "label", "[label](path.md)", "path.md"}}},
		{"markdown heading", "[l](dir/path.md#the-heading)", []linkRow{{1, m, "dir/path.md", "the-heading", "l", "[l](dir/path.md#the-heading)", "dir/path.md"}}},
		{"markdown angle brackets", "[l](<path with spaces.md>)", []linkRow{{1, m, "path with spaces.md", "", "l", "[l](<path with spaces.md>)", "path with spaces.md"}}},
		{"markdown percent", "[l](my%20note.md#a%20b)", []linkRow{{1, m, "my note.md", "a b", "l", "[l](my%20note.md#a%20b)", "my%20note.md"}}},
		{"markdown bad percent kept", "[l](a%zz.md)", []linkRow{{1, m, "a%zz.md", "", "l", "[l](a%zz.md)", "a%zz.md"}}},
		{"markdown encoded control kept", "[l](a%0D.md)", []linkRow{{1, m, "a%0D.md", "", "l", "[l](a%0D.md)", "a%0D.md"}}},
		{"markdown title", "[l](a.md \"Title\")", []linkRow{{1, m, "a.md", "", "l", "[l](a.md \"Title\")", "a.md"}}},
		{"markdown query", "[l](a.md?raw=1#h)", []linkRow{{1, m, "a.md", "h", "l", "[l](a.md?raw=1#h)", "a.md"}}},
		{"markdown parens", "[l](a(b).md)", []linkRow{{1, m, "a(b).md", "", "l", "[l](a(b).md)", "a(b).md"}}},
		{"markdown relative up", "[l](../up/x.markdown)", []linkRow{{1, m, "../up/x.markdown", "", "l", "[l](../up/x.markdown)", "../up/x.markdown"}}},
		{"markdown mdx and case", "[a](x.mdx) [b](Y.MD)", []linkRow{
			{1, m, "x.mdx", "", "a", "[a](x.mdx)", "x.mdx"}, {1, m, "Y.MD", "", "b", "[b](Y.MD)", "Y.MD"}}},
		{"markdown nested brackets", "[a [b] c](x.md)", []linkRow{{1, m, "x.md", "", "a [b] c", "[a [b] c](x.md)", "x.md"}}},
		{"markdown label across lines", "see [the\r\ndesign](design.md)", []linkRow{{1, m, "design.md", "", "the design", "[the\r\ndesign](design.md)", "design.md"}}},
		{"markdown not files", "[a](http://x.md) [b](mailto:a@b.md) [c](/abs.md) [d](obsidian://open?file=x.png) [e](#h) [f]() [g][ref] [h] (x.md)", nil},
		{"markdown not files: folders and names without extension", "[a](docs/) [b](LICENSE) [c](..) [d](a.) [e](../x/) [f](data:image/png;base64,iVBO)", nil},
		{"markdown attachment", "[spec](docs/spec.pdf)", []linkRow{{1, m, "docs/spec.pdf", "", "spec", "[spec](docs/spec.pdf)", "docs/spec.pdf"}}},
		{"markdown attachment any extension", "[d](../data/table.csv#L2)", []linkRow{{1, m, "../data/table.csv", "L2", "d", "[d](../data/table.csv#L2)", "../data/table.csv"}}},
		{"image", "x ![alt](img/a.png) y", []linkRow{{1, im, "img/a.png", "", "alt", "![alt](img/a.png)", "img/a.png"}}},
		{"image of a note", "![](x.md)", []linkRow{{1, im, "x.md", "", "", "![](x.md)", "x.md"}}},
		{"image angle brackets", "![alt](<attachments/my image.png>)", []linkRow{{1, im, "attachments/my image.png", "", "alt", "![alt](<attachments/my image.png>)", "attachments/my image.png"}}},
		{"image percent and title", "![a](my%20image.png \"The title\")", []linkRow{{1, im, "my image.png", "", "a", "![a](my%20image.png \"The title\")", "my%20image.png"}}},
		{"image not files", "![a](https://x/y.png) ![b](data:image/png;base64,iVBO) ![c](/abs.png) ![d](#h) ![e](obsidian://x.png)", nil},
		{"image inside a link", "[![badge](b.svg)](docs/x.pdf)", []linkRow{
			{1, m, "docs/x.pdf", "", "![badge](b.svg)", "[![badge](b.svg)](docs/x.pdf)", "docs/x.pdf"}}},
		{"image in code", "`![a](x.png)`\n```\n![b](y.png)\n```\n<!-- [c](z.pdf) -->\n\n    ![d](i.png)", nil},

		{"line numbers", "a\nb [[x]]\n\nc\n[y](y.md)\n", []linkRow{
			{2, w, "x", "", "", "[[x]]", "x"}, {5, m, "y.md", "", "y", "[y](y.md)", "y.md"}}},
		{"crlf", "[[a]]\r\n[[b|c]]\r\n", []linkRow{{1, w, "a", "", "", "[[a]]", "a"}, {2, w, "b", "", "c", "[[b|c]]", "b"}}},
		{"in heading", "# Title [[Link]]\n", []linkRow{{1, w, "Link", "", "", "[[Link]]", "Link"}}},
		{"in setext heading", "Title [[Link]]\n===\n", []linkRow{{1, w, "Link", "", "", "[[Link]]", "Link"}}},
		{"in list continuation", "- item\n\n    see [[Note]]\n", []linkRow{{3, w, "Note", "", "", "[[Note]]", "Note"}}},
		{"in quote", "> quoted [[Q]]\n", []linkRow{{1, w, "Q", "", "", "[[Q]]", "Q"}}},

		{"code span", "`[[x]]` ``a ` [[y]]`` [[z]]", []linkRow{{1, w, "z", "", "", "[[z]]", "z"}}},
		{"code span across lines", "`a\n[[x]]` [[y]]", []linkRow{{2, w, "y", "", "", "[[y]]", "y"}}},
		{"unmatched backticks", "``a` [[x]]", []linkRow{{1, w, "x", "", "", "[[x]]", "x"}}},
		{"code span ends at blank line", "`a\n\n[[x]]`", []linkRow{{3, w, "x", "", "", "[[x]]", "x"}}},
		{"fenced code", "```\n[[x]]\n```\n[[y]]", []linkRow{{4, w, "y", "", "", "[[y]]", "y"}}},
		{"indented code", "text\n\n    [[x]]\n", nil},
		{"fence in quote", "> ```\n> [[x]]\n> ```\n> [[y]]\n", []linkRow{{4, w, "y", "", "", "[[y]]", "y"}}},
		{"fence in quote ends with quote", "> ```\n> [[x]]\n[[y]]\n", []linkRow{{3, w, "y", "", "", "[[y]]", "y"}}},
		{"html comment", "a <!-- [[x]] --> [[y]]", []linkRow{{1, w, "y", "", "", "[[y]]", "y"}}},
		{"html comment across lines", "a <!-- x\n[[x]]\n--> [[y]]", []linkRow{{3, w, "y", "", "", "[[y]]", "y"}}},
		{"html comment block", "<!--\n\n[[x]]\n\n-->\n[[y]]", []linkRow{{6, w, "y", "", "", "[[y]]", "y"}}},
		{"unclosed inline comment", "a <!-- [[x]]", []linkRow{{1, w, "x", "", "", "[[x]]", "x"}}},
		{"bare url", "https://example.com/[[x]] [[y]]", []linkRow{{1, w, "y", "", "", "[[y]]", "y"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := linkRows(tt.src, scan(t, tt.src).Links)
			if !slices.Equal(got, tt.want) {
				t.Errorf("links of %q\n got %+v\nwant %+v", tt.src, got, tt.want)
			}
		})
	}
}

func TestScanBody_Tags(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"start of line", "#tag", []string{"tag"}},
		{"after blank", "text #tag more\tx\t#two", []string{"tag", "two"}},
		{"after paren and comma", "(#paren) a,#comma", []string{"paren", "comma"}},
		{"as written", "#MixedCase", []string{"MixedCase"}},
		{"nested", "#project/alpha/", []string{"project/alpha"}},
		{"punctuation ends", "#tag. #b_c-d! #e:f", []string{"tag", "b_c-d", "e"}},
		{"digits only", "#123 #2024/ #1a #2024/q1", []string{"1a", "2024/q1"}},
		{"dash counts as non-digit", "#1-2", []string{"1-2"}},
		{"not after a word", "C# a#b F#m", nil},
		{"hash and space", "a # b", nil},
		{"hashes", "## ###", nil},
		{"heading marker", "# Title\n", nil},
		{"in heading", "# Title #inhead\n## #first\n", []string{"inhead", "first"}},
		{"in list and quote", "- #a\n> #b\n", []string{"a", "b"}},
		{"url fragment", "http://x.com/#frag https://x.com/a,#b <https://x/(#c)>", nil},
		{"code", "`#code` ``#x``", nil},
		{"fenced", "```\n#code\n```\n", nil},
		{"indented code", "text\n\n    #code\n", nil},
		{"comment", "<!-- #hidden -->", nil},
		{"wikilink heading", "[[Note#Heading]] [[#tag]]", nil},
		{"markdown link", "[#label](a.md#h) [x](http://y/#z) [y](<a b.md> \"#t\")", nil},
		{"escaped", "\\#escaped", nil},
		{"html entity", "&#123; &#x41;", nil},
		{"unicode", "#café #日本語 #हिन्दी #Ünïcödé", []string{"café", "日本語", "हिन्दी", "Ünïcödé"}},
		{"unicode space before", "a\u00a0#nbsp a\u3000#ideo", []string{"nbsp", "ideo"}},
		{"invalid utf-8 ends a tag", "#ta\xffg", []string{"ta"}},
		{"crlf", "#a\r\n#b\r\n", []string{"a", "b"}},
		{"repeats kept", "#a #a", []string{"a", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scan(t, tt.src).Tags; !slices.Equal(got, tt.want) {
				t.Errorf("tags of %q = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}
