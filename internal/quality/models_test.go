package quality_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

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
// are measured with: "glove", "encoder", "building" (the static layer
// before the encoder has embedded any note), or several ("glove,encoder"). The
// sentence encoder embeds a set's corpus in minutes, so it is measured
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
		t.Fatalf("%s=%q: the models are glove, encoder and building", evalEnv, asked)
	}
	return out
}
