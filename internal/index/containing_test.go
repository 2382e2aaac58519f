package index

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// asciiWord is what Containing relies on: a string of ASCII letters,
// digits and '_' with a letter or a digit.
var asciiWord = regexp.MustCompile(`^[a-z0-9_]*[a-z0-9][a-z0-9_]*$`)

// checkWordRuns checks the claim Containing rests on, for text: wherever a
// piece of text lowercases to an ASCII word (as grep compares ignoring
// case), one of the words the text analyzer makes of text contains it.
// Texts that unsure flags are always returned, and are not checked.
func checkWordRuns(t *testing.T, c *compiler, text string) {
	t.Helper()
	if unsure(text) != "" {
		return
	}
	tokens := c.tokens(analyzerText, text)
	for i := 0; i < len(text); i++ {
		for j := i + 1; j <= len(text); j++ {
			piece := strings.ToLower(text[i:j])
			if !asciiWord.MatchString(piece) {
				continue
			}
			if !slices.ContainsFunc(tokens, func(tok string) bool { return strings.Contains(tok, piece) }) {
				t.Fatalf("text %q: no word of %q contains %q", text, tokens, piece)
			}
		}
	}
}

// wordAlphabet mixes ASCII word characters with what word segmentation
// treats specially: punctuation between letters or digits, combining
// marks, format characters, other scripts, and characters whose
// lowercase is ASCII (the Kelvin sign, the dotted capital I).
var wordAlphabet = []string{
	"a", "B", "z", "0", "7", "_", " ", "\t", ".", ",", "'", "-", ":", "/", "#", "@",
	"é", "ß", "カ", "中", "\u0301", "\u200d", "\u00ad", "K", "İ", "😀", "ǅ", "ς", "Σ", "ſ",
}

func TestWordRuns_claim(t *testing.T) {
	x, _ := openTest(t)
	c := &compiler{bi: x.bi, im: x.im}
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(wordAlphabet[r.IntN(len(wordAlphabet))])
		}
		checkWordRuns(t, c, b.String())
	}
}

func FuzzWordRuns(f *testing.F) {
	for _, s := range []string{"foo.bar", "can't", "x_1", "KELVIN", "İstanbul", "a\u0301b", "3.14", "a_\u200db"} {
		f.Add(s)
	}
	x, _ := openTest(f)
	c := &compiler{bi: x.bi, im: x.im}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 64 {
			return
		}
		checkWordRuns(t, c, text)
	})
}

func TestWordRuns(t *testing.T) {
	tests := map[string][]string{
		"":                 nil,
		"foo":              {"foo"},
		"foo.bar baz":      {"foo", "bar", "baz"},
		"__init__":         {"__init__"},
		"___":              nil,
		"a-b_c":            {"a", "b_c"},
		"café au lait":     {"caf", "au", "lait"},
		"x_1:y":            {"x_1", "y"},
		"  spaced  words ": {"spaced", "words"},
	}
	for in, want := range tests {
		if got := wordRuns(in); !slices.Equal(got, want) {
			t.Errorf("wordRuns(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndex_Containing(t *testing.T) {
	x, _ := openTest(t)
	docs := []wiki.Document{
		{Path: "a", Body: "The subproject starts.\n"},
		{Path: "b", Frontmatter: "---\nstatus: projected\n---\n", Body: "Nothing here.\n"},
		{Path: "f/c", Body: "foo.bar and PROJECT_X\n"},
		{Path: "f/d", Body: "pro ject\n"},
		{Path: "e", Body: "\u212Aelvin garbles its words.\n"}, // always returned
	}
	apply(t, x, "c1", docs, nil)
	ctx := context.Background()
	tests := []struct {
		strs   []string
		folder string
		want   []string
		ok     bool
	}{
		{[]string{"project"}, "", []string{"a", "b", "e", "f/c"}, true},
		{[]string{"ProJect"}, "", []string{"a", "b", "e", "f/c"}, true},
		{[]string{"project"}, "f", []string{"f/c"}, true},
		{[]string{"o.ba"}, "", nil, false}, // no run of three
		{[]string{"oo.bar"}, "", []string{"e", "f/c"}, true},
		{[]string{"ject_x"}, "", []string{"e", "f/c"}, true},
		{[]string{"pro ject"}, "", []string{"a", "b", "e", "f/c", "f/d"}, true},
		{[]string{"starts", "nothing"}, "", []string{"e"}, true},
		{[]string{"zzz"}, "", []string{"e"}, true},
	}
	for _, tt := range tests {
		got, ok, err := x.Containing(ctx, tt.strs, tt.folder)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("Containing(%q, %q) = %q, %v; want %q, %v", tt.strs, tt.folder, got, ok, tt.want, tt.ok)
		}
	}
}
