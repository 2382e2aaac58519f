package staticembed

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"io/fs"
	"sync"
)

// model holds the built-in model file, committed beside this file, its
// sum (what it was made from, and its checksum) and a note on it. A tree
// without the model file still builds (go:embed needs only one match).
//
//go:embed model/builtin.*
var model embed.FS

// BuiltinName names the built-in model's vectors.
const BuiltinName = "builtin/glove-100d-160k-sif-3"

// ErrNotBuilt is returned by Builtin when the binary was built without
// the model file.
var ErrNotBuilt = errors.New("this wikid was built without its built-in model: " +
	"build it from a checkout that has internal/staticembed/model/builtin.semb (make model makes it again)")

// Builtin returns the built-in model, loaded once.
var Builtin = sync.OnceValues(func() (*Model, error) {
	data, err := model.ReadFile("model/builtin.semb")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, err
	}
	return Load(bytes.NewReader(data), BuiltinName)
})

// BuiltinSource returns what the built-in model was made from and its
// checksum, as recorded beside it. It returns ErrNotBuilt when the binary
// holds no model, and an error when the record does not read.
func BuiltinSource() (Source, error) {
	if !Available() {
		return Source{}, ErrNotBuilt
	}
	f, err := model.Open("model/builtin.sum")
	if err != nil {
		return Source{}, err
	}
	defer f.Close()
	return ReadSum(f)
}

// Available reports whether the binary holds the built-in model, without
// loading it.
func Available() bool {
	_, err := fs.Stat(model, "model/builtin.semb")
	return err == nil
}

// Lazy is the built-in model as an embedder that loads it on first use
// (about a tenth of a second, 33 MiB), so that opening a wiki does not wait
// for it.
type Lazy struct{}

// Model names the built-in model's vectors.
func (Lazy) Model() string { return BuiltinName }

// Endpoint says where the model runs.
func (Lazy) Endpoint() string { return "built in" }

// BatchSize is how many texts one call embeds.
func (Lazy) BatchSize() int { return 256 }

// Embed loads the model, once, and embeds texts with it.
func (Lazy) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m, err := Builtin()
	if err != nil {
		return nil, err
	}
	return m.Embed(ctx, texts)
}
