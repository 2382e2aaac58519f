// Package builtin holds the sentence encoder's model files and embeds the
// default one, bge-small-en-v1.5 with int8 weights, in the binaries that
// import it. The other file beside it (all-MiniLM-L6-v2, half the layers)
// is committed but not embedded: naming it in the go:embed lines and
// DefaultFile switches the default.
package builtin

import (
	"context"
	_ "embed" // the model file
	"strings"
	"sync"
	"unsafe"

	"github.com/wikid/wikid/internal/encoder"
)

// DefaultFile names the default model file, beside this package's code.
const DefaultFile = "model/bge-small-en-v1.5.wenc"

// model and sum are the default model file and its sum. The model is a
// string, not an embed.FS, so that its 34 MB are read from the binary's
// data where they lie instead of being copied to the heap.
var (
	//go:embed model/bge-small-en-v1.5.wenc
	model string
	//go:embed model/bge-small-en-v1.5.sum
	sum string
)

// Default returns the default model, loaded once (17 ms, 5 MB of heap:
// its int8 weights stay in the binary's data).
var Default = sync.OnceValues(func() (*encoder.Model, error) {
	// Load only reads its data, so it may be the string's bytes.
	return encoder.Load(unsafe.Slice(unsafe.StringData(model), len(model)))
})

// DefaultSource returns what the default model file was made from and its
// checksum, as its sum file records them. It returns an error when the
// record does not read.
func DefaultSource() (encoder.Source, error) {
	return encoder.ReadSum(strings.NewReader(sum))
}

// sumOf names the sum file of a model file.
func sumOf(file string) string {
	return file[:len(file)-len(".wenc")] + ".sum"
}

// Name names the vectors of the default model, as the semantic index keeps
// them: vectors of two names are not comparable.
const Name = "builtin/bge-small-en-v1.5-int8"

// ResolveThreshold is the least cosine similarity between a name and a
// note's text for a semantic name resolution to match it with the default
// model. Measured on the labelled sets of package quality: at 0.60, 69 of
// their 80 unrelated questions find no note (34 at the word vectors' 0.55)
// and one of their 235 questions loses its right note; at 0.61, 73 and
// three.
const ResolveThreshold = 0.60

// TextShare is the text ranking's weight in a hybrid search's fusion with
// the default model's ranking by meaning, which finds the note a question
// means in other words more often than word vectors do. Measured on the
// labelled sets of package quality.
const TextShare = 0.6

// Lazy is the default model as the semantic index's embedder: it loads the
// model on first use, embeds a note's chunks as passages and a search's
// question as a query (with the model's instruction before it).
type Lazy struct{}

// Model names the default model's vectors.
func (Lazy) Model() string { return Name }

// Endpoint says where the model runs.
func (Lazy) Endpoint() string { return "built in" }

// BatchSize is how many texts one call embeds.
func (Lazy) BatchSize() int { return 16 }

// Embed embeds texts as passages.
func (Lazy) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m, err := Default()
	if err != nil {
		return nil, err
	}
	return m.Embed(ctx, texts, encoder.Passage)
}

// EmbedQuery embeds a search's question.
func (Lazy) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	m, err := Default()
	if err != nil {
		return nil, err
	}
	v, err := m.Embed(ctx, []string{text}, encoder.Query)
	if err != nil {
		return nil, err
	}
	return v[0], nil
}
