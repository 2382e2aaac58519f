// Package builtin holds the sentence encoder's model files and embeds the
// default one, bge-small-en-v1.5 with int8 weights, in the binaries that
// import it. The other file beside it (all-MiniLM-L6-v2, half the layers)
// is committed but not embedded: naming it in the go:embed pattern and
// DefaultFile switches the default.
package builtin

import (
	"errors"
	"io/fs"
	"sync"

	"embed"

	"github.com/wikid/wikid/internal/encoder"
)

// DefaultFile names the default model file, beside this package's code.
const DefaultFile = "model/bge-small-en-v1.5.wenc"

// files holds the default model file and its sum. A tree without the
// model file still builds (go:embed needs only one match).
//
//go:embed model/bge-small-en-v1.5.*
var files embed.FS

// ErrNotBuilt is returned by Default and DefaultSource when the binary was
// built without the model file.
var ErrNotBuilt = errors.New("this wikid was built without its encoder model: " +
	"build it from a checkout that has internal/encoder/builtin/" + DefaultFile + " (make encoder-model makes it again)")

// Default returns the default model, loaded once: about 34 MB, shared
// with the binary's data.
var Default = sync.OnceValues(func() (*encoder.Model, error) {
	data, err := files.ReadFile(DefaultFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, err
	}
	return encoder.Load(data)
})

// DefaultSource returns what the default model file was made from and its
// checksum, as its sum file records them. It returns ErrNotBuilt when the
// binary holds no model, and an error when the record does not read.
func DefaultSource() (encoder.Source, error) {
	if !Available() {
		return encoder.Source{}, ErrNotBuilt
	}
	f, err := files.Open(sumOf(DefaultFile))
	if err != nil {
		return encoder.Source{}, err
	}
	defer f.Close()
	return encoder.ReadSum(f)
}

// Available reports whether the binary holds the default model file,
// without loading it.
func Available() bool {
	_, err := fs.Stat(files, DefaultFile)
	return err == nil
}

// sumOf names the sum file of a model file.
func sumOf(file string) string {
	return file[:len(file)-len(".wenc")] + ".sum"
}
