// Command distil makes a static embedding from an encoder model file, as
// model2vec does (see encoder.Model.Distil): every token of the model's
// vocabulary run through the model alone, its vectors reduced to their
// -dims principal components and weighted by the token's rank. With -sum
// it also writes the record of what the file was made from: the model
// file's checksum, the recipe and the static file's checksum. The output
// is the same on any number of cores (the matrix kernels of another
// architecture may round a last bit otherwise).
//
//	distil -model bge-small-en-v1.5.wenc -dims 256 \
//	  -out bge-small-en-v1.5.static -sum bge-small-en-v1.5.static.sum
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wikid/wikid/internal/encoder"
)

func main() {
	model := flag.String("model", "", "the encoder model file")
	dims := flag.Int("dims", 256, "the static vectors' length")
	bits := flag.Int("bits", 8, "bits a number: 4 or 8")
	out := flag.String("out", "", "the static file to write")
	sum := flag.String("sum", "", "the record to write: the model file's checksum, the recipe, the static file's checksum")
	flag.Parse()
	if err := distil(*model, *dims, *bits, *out, *sum); err != nil {
		fmt.Fprintln(os.Stderr, "distil:", err)
		os.Exit(1)
	}
}

func distil(modelPath string, dims, bits int, out, sum string) error {
	data, err := os.ReadFile(modelPath)
	if err != nil {
		return err
	}
	m, err := encoder.Load(data)
	if err != nil {
		return fmt.Errorf("%s: %w", modelPath, err)
	}
	last := 0
	st, err := m.Distil(context.Background(), dims, func(done, total int) {
		if pct := 100 * done / total; pct >= last+10 || done == total {
			last = pct
			fmt.Fprintf(os.Stderr, "%d of %d tokens\n", done, total)
		}
	})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := encoder.WriteStatic(&b, st, bits); err != nil {
		return err
	}
	if err := writeFile(out, b.Bytes()); err != nil {
		return err
	}
	fmt.Printf("%s: %d tokens of %d dimensions at %d bits, sha256 %s\n", out, st.Rows, st.Cols, bits, encoder.SHA256(b.Bytes()))
	if sum == "" {
		return nil
	}
	record := fmt.Sprintf("# The static file %s and the encoder model file it is distilled from.\n"+
		"# Written by make static-model; checked by TestStatic_Source.\n"+
		"model-file: %s\nmodel-sha256: %s\n"+
		"recipe: each token as [CLS] token [SEP], the model's pooling, PCA to %d dimensions, weight 1e-4/(1e-4+p), p by Zipf on the token's id, %d bits a number with a scale per token\n"+
		"tokens: %d\ndims: %d\nbits: %d\nsize: %d\nsha256: %s\n",
		filepath.Base(out), filepath.Base(modelPath), encoder.SHA256(data), dims, bits, st.Rows, st.Cols, bits, b.Len(), encoder.SHA256(b.Bytes()))
	return writeFile(sum, []byte(record))
}

// writeFile writes data to name through a temporary file renamed into
// place, so that a build never embeds half a file.
func writeFile(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
