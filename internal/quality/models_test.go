package quality_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/encoder"
	"github.com/wikid/wikid/internal/encoder/builtin"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/staticembed"
)

// A model is a way of embedding the notes that the harness compares with
// the others: GloVe's averaged word vectors (staticembed), or the sentence
// encoder (encoder/builtin).
type model struct {
	name string
	// building is set for a model that never embeds a note: the index is
	// not waited for.
	building bool
	// embedder returns the model's embedder and the index's options for
	// it, or skips the test when the model is not there.
	embedder func(t *testing.T) (semantic.Embedder, semantic.Options)
}

var models = []model{
	{name: "glove", embedder: func(t *testing.T) (semantic.Embedder, semantic.Options) {
		m, err := staticembed.Builtin()
		if errors.Is(err, staticembed.ErrNotBuilt) && os.Getenv("CI") == "" {
			t.Skip("the built-in model is not built: run make model")
		}
		if err != nil {
			t.Fatal(err)
		}
		return m, semantic.Options{Logger: quiet, Reads: m.Reads}
	}},
	{name: "encoder", embedder: func(t *testing.T) (semantic.Embedder, semantic.Options) {
		// The encoder reads English: the notes GloVe's English words do
		// not read (the help vault's other languages) are left to text
		// search, as with GloVe.
		m, err := staticembed.Builtin()
		if errors.Is(err, staticembed.ErrNotBuilt) && os.Getenv("CI") == "" {
			t.Skip("the built-in model is not built: run make model")
		}
		if err != nil {
			t.Fatal(err)
		}
		return builtin.Lazy{}, semantic.Options{Logger: quiet, Reads: m.Reads, Threshold: builtin.ResolveThreshold, TextShare: builtin.TextShare}
	}},
	{name: "building", building: true, embedder: func(t *testing.T) (semantic.Embedder, semantic.Options) {
		// The encoder before it has embedded any note: every note is
		// ranked by meaning through the static layer (GloVe's vectors),
		// the questions by both, as a search while the index is built.
		// With nothing embedded the ranking is GloVe's: on the Docker
		// CLI set it measures as glove does, through the encoder's
		// index, its static layer and its language rule.
		m, err := staticembed.Builtin()
		if errors.Is(err, staticembed.ErrNotBuilt) && os.Getenv("CI") == "" {
			t.Skip("the built-in model is not built: run make model")
		}
		if err != nil {
			t.Fatal(err)
		}
		return stalled{}, semantic.Options{Logger: quiet, Reads: m.Reads, Static: m}
	}},
	{name: "distilled", building: true, embedder: func(t *testing.T) (semantic.Embedder, semantic.Options) {
		// As building, with the static layer distilled from the encoder
		// (its vocabulary run through it, model2vec's recipe) instead of
		// GloVe's vectors; GloVe's words still decide which notes the
		// encoder reads.
		m, err := staticembed.Builtin()
		if errors.Is(err, staticembed.ErrNotBuilt) && os.Getenv("CI") == "" {
			t.Skip("the built-in model is not built: run make model")
		}
		if err != nil {
			t.Fatal(err)
		}
		return stalled{}, semantic.Options{Logger: quiet, Reads: m.Reads, Static: distilledLayer(t)}
	}},
}

// distilled is the static layer distilled from the encoder, as the
// semantic index's static model.
type distilled struct{ *encoder.Static }

// Model names the distilled vectors.
func (distilled) Model() string { return "builtin/bge-small-en-v1.5-static" }

// Endpoint says where the model runs.
func (distilled) Endpoint() string { return "built in" }

// BatchSize is how many texts one call embeds.
func (distilled) BatchSize() int { return 256 }

// distilledLayer reads the static file distilled from the encoder (make
// static-model), or skips the test without one.
func distilledLayer(t *testing.T) distilled {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "encoder", "builtin", "model", "bge-small-en-v1.5.static"))
	if errors.Is(err, os.ErrNotExist) && os.Getenv("CI") == "" {
		t.Skip("the distilled static layer is not made: run make static-model")
	}
	if err != nil {
		t.Fatal(err)
	}
	m, err := builtin.Default()
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Static(data)
	if err != nil {
		t.Fatal(err)
	}
	return distilled{s}
}

// stalled is the encoder as it is before it has embedded a note: it
// embeds questions, and never finishes a batch of notes.
type stalled struct{ builtin.Lazy }

// Embed waits for the end of the run.
func (stalled) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// evalEnv names the environment variable that picks the models the sets
// are measured with: "glove", "encoder", "building" (the static layer,
// GloVe's, before the encoder has embedded any note), "distilled" (the
// same with the static layer distilled from the encoder), or several
// ("glove,encoder"). The sentence encoder embeds a set's corpus in minutes, so it is measured
// only when asked; with -short the sets are measured only when asked.
const evalEnv = "WIKID_EVAL"

// chosenModels returns the models the run measures, skipping the test
// when none is asked for under -short.
func chosenModels(t *testing.T) []model {
	asked := os.Getenv(evalEnv)
	if asked == "" {
		if testing.Short() {
			t.Skipf("the quality sets are measured without -short, or with %s=glove,encoder", evalEnv)
		}
		asked = "glove"
	}
	names := strings.Split(asked, ",")
	var out []model
	for _, m := range models {
		if slices.Contains(names, m.name) {
			out = append(out, m)
		}
	}
	if len(out) != len(names) {
		t.Fatalf("%s=%q: the models are glove, encoder, building and distilled", evalEnv, asked)
	}
	return out
}
