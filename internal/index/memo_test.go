package index

import (
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

// TestMemo_Filter checks that a memo gives the terms its chain gives, the
// first time and from memory, and forgets once full.
func TestMemo_Filter(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	a := im.AnalyzerNamed(analyzerStem("en"))
	text := []byte("The Plugins' settings: plugins synced, SYNCING and syncs. The plugin's notes.")
	want := []string{"the", "plugin", "set", "plugin", "sync", "sync", "and", "sync", "the", "plugin", "note"}
	for i := range 2 {
		if got := terms(a.Analyze(slices.Clone(text))); !slices.Equal(got, want) {
			t.Errorf("pass %d: terms %q, want %q", i, got, want)
		}
	}
	m := &memo{words: map[string][]byte{}}
	for i := range memoSize + 10 {
		m.Filter(analysis.TokenStream{{Term: []byte{byte(i), byte(i >> 8), byte(i >> 16)}}})
	}
	if len(m.words) > memoSize {
		t.Errorf("memo holds %d words, more than %d", len(m.words), memoSize)
	}
}

func terms(ts analysis.TokenStream) []string {
	var out []string
	for _, t := range ts {
		out = append(out, string(t.Term))
	}
	return out
}
