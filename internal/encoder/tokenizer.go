package encoder

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// tokenizer is a BERT WordPiece tokenizer that gives the ids HF tokenizers
// gives for the same tokenizer.json: BertNormalizer (clean text, CJK
// ideographs, accents, lower case), BertPreTokenizer (white space and
// punctuation) and WordPiece, with the special tokens matched in the raw
// text first and the input framed by [CLS] and [SEP].
type tokenizer struct {
	cfg     TokenizerConfig
	ids     map[string]int32
	special []string
	unk     int32
	cls     int32
	sep     int32
}

// newTokenizer builds the tokenizer cfg describes; it returns an error
// wrapping ErrFormat when its unknown, CLS or SEP token is not in its
// vocabulary.
func newTokenizer(cfg TokenizerConfig) (*tokenizer, error) {
	t := &tokenizer{cfg: cfg, ids: make(map[string]int32, len(cfg.Vocab))}
	for i, w := range cfg.Vocab {
		if _, dup := t.ids[w]; !dup {
			t.ids[w] = int32(i)
		}
	}
	var ok [3]bool
	t.unk, ok[0] = t.ids[cfg.Unk]
	t.cls, ok[1] = t.ids[cfg.CLS]
	t.sep, ok[2] = t.ids[cfg.SEP]
	if !ok[0] || !ok[1] || !ok[2] {
		return nil, errFormatf("the unknown, CLS or SEP token is not in the vocabulary")
	}
	for _, s := range cfg.Special {
		if _, in := t.ids[s]; in && s != "" {
			t.special = append(t.special, s)
		}
	}
	return t, nil
}

// Encode returns the token ids of text, [CLS] first and [SEP] last, at
// most max of them (the words past max-2 tokens are dropped, as a
// truncation to max does). A max below 3 means no limit.
func (t *tokenizer) Encode(text string, max int) []int32 {
	ids := []int32{t.cls}
	limit := -1
	if max >= 3 {
		limit = max - 1
	}
	full := func() bool { return limit >= 0 && len(ids) >= limit }
	for text != "" && !full() {
		seg, special, rest := t.cutSpecial(text)
		text = rest
		ids = t.appendText(ids, seg, limit)
		if special != "" && !full() {
			ids = append(ids, t.ids[special])
		}
	}
	return append(ids, t.sep)
}

// cutSpecial returns the text before the first special token of text, the
// token, and the text after it; with no special token, text and "".
func (t *tokenizer) cutSpecial(text string) (before, special, after string) {
	best := -1
	for _, s := range t.special {
		i := strings.Index(text, s)
		if i >= 0 && (best < 0 || i < best || i == best && len(s) > len(special)) {
			best, special = i, s
		}
	}
	if best < 0 {
		return text, "", ""
	}
	return text[:best], special, text[best+len(special):]
}

// appendText appends the WordPiece ids of text to ids, stopping when ids
// holds limit of them (limit < 0: no limit).
func (t *tokenizer) appendText(ids []int32, text string, limit int) []int32 {
	normal := t.normalize(text)
	word := 0
	flush := func(end int) {
		if end > word {
			ids = t.wordPiece(ids, normal[word:end])
		}
	}
	for i, r := range normal {
		if limit >= 0 && len(ids) >= limit {
			return ids[:limit]
		}
		switch {
		case unicode.Is(unicode.White_Space, r):
			flush(i)
			word = i + utf8.RuneLen(r)
		case isBertPunct(r):
			flush(i)
			end := i + utf8.RuneLen(r)
			ids = t.wordPiece(ids, normal[i:end])
			word = end
		}
	}
	flush(len(normal))
	if limit >= 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	return ids
}

// wordPiece appends the ids of word's pieces, longest first, or the
// unknown token when the word is too long or a part of it has no piece.
func (t *tokenizer) wordPiece(ids []int32, word string) []int32 {
	if utf8.RuneCountInString(word) > t.cfg.MaxWordChars {
		return append(ids, t.unk)
	}
	start := len(ids)
	var buf []byte
	for pos := 0; pos < len(word); {
		end := len(word)
		found := false
		for end > pos {
			var id int32
			var ok bool
			if pos == 0 {
				id, ok = t.ids[word[:end]]
			} else {
				buf = append(append(buf[:0], t.cfg.Prefix...), word[pos:end]...)
				id, ok = t.ids[string(buf)] // a lookup by string(buf) does not allocate
			}
			if ok {
				ids = append(ids, id)
				found = true
				break
			}
			_, size := utf8.DecodeLastRuneInString(word[pos:end])
			end -= size
		}
		if !found {
			return append(ids[:start], t.unk)
		}
		pos = end
	}
	return ids
}

// normalize applies BertNormalizer to text, in its order: clean text,
// CJK ideographs, accents, lower case.
func (t *tokenizer) normalize(text string) string {
	c := &t.cfg
	var b strings.Builder
	b.Grow(len(text) + 8)
	for _, r := range text {
		if c.CleanText {
			if r == 0 || r == utf8.RuneError || isControl(r) {
				continue
			}
			if r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.White_Space, r) {
				r = ' '
			}
		}
		if c.ChineseChars && isChinese(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	s := b.String()
	if c.StripAccents {
		s = stripMarks(norm.NFD.String(s))
	}
	if c.Lowercase {
		s = lower(s)
	}
	return s
}

// stripMarks removes the non-spacing marks (Mn) of s.
func stripMarks(s string) string {
	if strings.IndexFunc(s, isMn) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isMn(r) {
			return -1
		}
		return r
	}, s)
}

func isMn(r rune) bool { return r >= 0x300 && unicode.Is(unicode.Mn, r) }

// lower lowers each letter of s as Rust's char::to_lowercase does: one
// letter for another, but İ (U+0130) becomes i and a combining dot.
func lower(s string) string {
	if !strings.ContainsRune(s, 'İ') {
		return strings.Map(unicode.ToLower, s)
	}
	var b strings.Builder
	for _, r := range s {
		if r == 'İ' {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// isControl reports whether r is a control, format, private-use or
// surrogate character (Cc, Cf, Co, Cs) other than tab, newline and carriage
// return: what BertNormalizer's clean text removes. Unassigned characters
// are kept, as HF tokenizers keeps them.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isBertPunct reports whether r is a word of its own for BertPreTokenizer:
// ASCII punctuation (symbols such as $ + < = > ^ ` | ~ included) or a
// Unicode punctuation character.
func isBertPunct(r rune) bool {
	if r < 0x80 {
		return r > ' ' && r < 0x7f && !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}
	return unicode.IsPunct(r)
}

// isChinese reports whether r is a CJK ideograph as BertNormalizer counts
// them (the blocks HF tokenizers lists).
func isChinese(r rune) bool {
	switch {
	case 0x4E00 <= r && r <= 0x9FFF,
		0x3400 <= r && r <= 0x4DBF,
		0x20000 <= r && r <= 0x2A6DF,
		0x2A700 <= r && r <= 0x2B73F,
		0x2B740 <= r && r <= 0x2B81F,
		0x2B920 <= r && r <= 0x2CEAF,
		0xF900 <= r && r <= 0xFAFF,
		0x2F800 <= r && r <= 0x2FA1F:
		return true
	}
	return false
}
