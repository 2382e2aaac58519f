package quality_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/quality"
	"github.com/wikid/wikid/internal/wiki"
)

// dumpEnv names a folder the harness writes each set's raw rankings to,
// for tuning a fusion away from the harness: per question, the text and
// the semantic ranking to the search's depth with their scores, and the
// semantic ranking of the probes.
const dumpEnv = "WIKID_EVAL_DUMP"

type scoredPath struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
}

type dumped struct {
	Question string         `json:"question"`
	Want     []string       `json:"want"`
	Text     []scoredPath   `json:"text"`
	Semantic []scoredPath   `json:"semantic"`
	Probes   [][]scoredPath `json:"probes,omitempty"`
}

// dump writes the set's raw rankings under the model's name, when asked.
func dump(t *testing.T, w *wiki.Wiki, model string, set *quality.Set, probes []string) {
	dir := os.Getenv(dumpEnv)
	if dir == "" {
		return
	}
	ctx := context.Background()
	rank := func(q, mode string) []scoredPath {
		res, err := w.Search(ctx, wiki.SearchParams{Query: q, Mode: mode, Limit: 100})
		if err != nil {
			t.Fatalf("%s %q: %v", mode, q, err)
		}
		out := make([]scoredPath, len(res.Results))
		for i, h := range res.Results {
			out[i] = scoredPath{h.Path, h.Score}
		}
		return out
	}
	var out []dumped
	var probed [][]scoredPath
	for _, p := range probes {
		probed = append(probed, rank(p, wiki.SearchSemantic))
	}
	for _, q := range set.Questions {
		out = append(out, dumped{Question: q.Question, Want: q.Notes,
			Text: rank(q.Question, wiki.SearchText), Semantic: rank(q.Question, wiki.SearchSemantic)})
	}
	if len(out) > 0 {
		out[0].Probes = probed
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, set.Name+"-"+model+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
