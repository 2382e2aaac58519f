package staticembed

import "strings"

// What the model must know of a text to read it: readShare of its words
// among the readWords most frequent. The frequent words tell a language
// apart; the rare ones hold many words of other languages, and parts of
// words that need not be English. Measured on a help vault translated into
// 35 languages: nine English notes in ten know 87% of their words or more,
// nine French or Spanish notes in ten 63% or fewer.
const (
	readShare = 0.7
	readWords = 100_000
)

// Reads reports whether the model knows enough of a text's words to
// embed its meaning. A text in a language the model does not read, or
// code, gets no vector rather than one made of the few words it knows.
func (m *Model) Reads(text string) bool {
	words, known := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWord) {
		words++
		if i, ok := m.index[w]; ok && i < readWords {
			known++
		}
	}
	return words > 0 && float64(known) >= readShare*float64(words)
}

// Reads is Model.Reads of the built-in model, loaded once; it reads
// nothing when the binary has no model.
func (Lazy) Reads(text string) bool {
	m, err := Builtin()
	return err == nil && m.Reads(text)
}
