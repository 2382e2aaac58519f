package encoder

import (
	"bytes"
	"slices"
	"testing"
)

func tinyTokenizer(tb testing.TB) (*tokenizer, map[string]int32) {
	tb.Helper()
	cfg := tinyConfig().Tokenizer
	tok, err := newTokenizer(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ids := map[string]int32{}
	for i, w := range cfg.Vocab {
		ids[w] = int32(i)
	}
	return tok, ids
}

func TestTokenizer_Encode(t *testing.T) {
	tok, id := tinyTokenizer(t)
	tokens := func(ws ...string) []int32 {
		out := []int32{id["[CLS]"]}
		for _, w := range ws {
			out = append(out, id[w])
		}
		return append(out, id["[SEP]"])
	}
	for _, tc := range []struct {
		name, text string
		max        int
		want       []int32
	}{
		{"empty", "", 0, tokens()},
		{"words", "the wiki", 0, tokens("the", "wiki")},
		{"continuation", "wikis", 0, tokens("wiki", "##s")},
		{"upper case", "THE WIKI", 0, tokens("the", "wiki")},
		{"accents", "Café", 0, tokens("cafe")},
		{"punctuation is a word", "wiki!the.", 0, tokens("wiki", "!", "the", ".")},
		{"no piece: the word is unknown", "wikiz the", 0, tokens("[UNK]", "the")},
		{"CJK ideographs are words", "the你好", 0, tokens("the", "你", "好")},
		{"control characters go", "wi\x00k\u200bi", 0, tokens("wiki")},
		{"white space of all kinds", "a\tb\nc\u3000a\u00a0b", 0, tokens("a", "b", "c", "a", "b")},
		{"special tokens in the raw text", "a[MASK]b [SEP]", 0, tokens("a", "[MASK]", "b", "[SEP]")},
		{"special tokens are case-sensitive", "[mask]", 0, tokens("[UNK]", "[UNK]", "[UNK]")},
		{"long word", string(bytes.Repeat([]byte("a"), 101)), 0, tokens("[UNK]")},
		{"truncated", "a b c a b c", 5, tokens("a", "b", "c")},
		{"truncated within a word", "a wikis", 4, tokens("a", "wiki")},
		{"truncated at a special token", "a b [MASK] c", 4, tokens("a", "b")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tok.Encode(tc.text, tc.max); !slices.Equal(got, tc.want) {
				t.Errorf("Encode(%q, %d) = %v, want %v", tc.text, tc.max, got, tc.want)
			}
		})
	}
}

// FuzzTokenizer checks that any text gives ids of the vocabulary framed by
// [CLS] and [SEP], and that a truncation keeps the first tokens.
func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"", "the wiki", "Café 你好!", "a[MASK]b", "\x00\xff\u0130", "wikis wikiz", "ǅ İ ß ﬁ"} {
		f.Add(s, 5)
	}
	tok, _ := tinyTokenizer(f)
	vocab := int32(len(tinyConfig().Tokenizer.Vocab))
	f.Fuzz(func(t *testing.T, text string, max int) {
		full := tok.Encode(text, 0)
		if len(full) < 2 || full[0] != tok.cls || full[len(full)-1] != tok.sep {
			t.Fatalf("Encode(%q) = %v: not framed by [CLS] and [SEP]", text, full)
		}
		for _, id := range full {
			if id < 0 || id >= vocab {
				t.Fatalf("Encode(%q) = %v: id %d outside the vocabulary", text, full, id)
			}
		}
		max = 3 + (max&0xff)%20
		cut := tok.Encode(text, max)
		want := full
		if len(full) > max {
			want = append(slices.Clone(full[:max-1]), tok.sep)
		}
		if !slices.Equal(cut, want) {
			t.Fatalf("Encode(%q, %d) = %v, want the first tokens of %v", text, max, cut, full)
		}
	})
}

// FuzzLoad checks that Load returns a model or an error, never panics, on
// any bytes, and that a model it returns embeds.
func FuzzLoad(f *testing.F) {
	data := tinyModel(f)
	f.Add(data)
	f.Add(data[:100])
	f.Add([]byte("wikidenc"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(data)
		if err != nil {
			return
		}
		if v := m.EmbedIDs(m.tok.Encode("the wiki", m.MaxTokens())); len(v) != m.Dim() {
			t.Fatalf("a vector of %d, want %d", len(v), m.Dim())
		}
	})
}
