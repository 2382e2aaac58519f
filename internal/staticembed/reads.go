package staticembed

import "strings"

// readShare is the least share of a text's words the model must know to
// read it. Measured on a help vault translated into 35 languages: English
// notes know 87% of their words or more in nine of ten, the nearest other
// languages (French, Spanish) 63% or fewer.
const readShare = 0.7

// Reads reports whether the model knows enough of a text's words to
// embed its meaning: at least readShare of them. A text in a language the
// model does not read, or code, gets no vector rather than one made of
// the few words it knows.
func (m *Model) Reads(text string) bool {
	words, known := 0, 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWord) {
		words++
		if _, ok := m.index[w]; ok {
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
