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

// TestForgetWords checks that forgetWords, which a long update ends with,
// empties the memos of the stemming chains that indexing filled.
func TestForgetWords(t *testing.T) {
	x, _ := openTest(t)
	c := newCorpus(50)
	c.buildBatches(t, x, 50)
	words := func() int {
		memos.mu.Lock()
		defer memos.mu.Unlock()
		n := 0
		for _, p := range memos.list {
			if m := p.Value(); m != nil {
				m.mu.RLock()
				n += len(m.words)
				m.mu.RUnlock()
			}
		}
		return n
	}
	if words() == 0 {
		t.Fatal("indexing filled no memo")
	}
	forgetWords()
	if n := words(); n > 0 {
		t.Errorf("the memos hold %d words after forgetWords", n)
	}
}
