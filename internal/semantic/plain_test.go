package semantic

import "testing"

func TestPlainLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Just words.", "Just words."},
		{"## A heading", "A heading"},
		{"- <span class=\"icon-app icon-notion\"></span> [[Notion]]", "Notion"},
		{"See [[Folder/Other note#Part|the other note]] and [[Plain]].", "See the other note and Plain."},
		{"Jump to [[#Section two]].", "Jump to Section two."},
		{"![[Pasted image 2023.png]] ![[Embedded note]]", "Embedded note"},
		{"Read [the guide](https://example.com/guide) ![a cat](cat.png)", "Read the guide a cat"},
		{"> [!tip]- Open **the** `settings`", "Open the settings"},
		{"1. [ ] Buy ~~milk~~ ==bread==", "Buy milk bread"},
		{"| Key | Action |", "Key Action"},
		{"|---|:---:|", ""},
		{"```go", ""},
		{"Text <!-- hidden --> and %%private%% end", "Text and end"},
		{"a * b", "a b"},
		{"配置 [[设置|设置面板]]", "配置 设置面板"},
	} {
		if got := plainLine(c.in); got != c.want {
			t.Errorf("plainLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzPlainLine checks that the text a reader sees never holds a link's
// brackets and never grows.
func FuzzPlainLine(f *testing.F) {
	for _, s := range []string{"[[a|b]]", "<b>x</b>", "**x**", "![[a.png]]", "[a](b)", "| a |"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := plainLine(s)
		if len(got) > len(s) {
			t.Errorf("plainLine(%q) = %q, longer", s, got)
		}
	})
}
