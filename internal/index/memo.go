package index

import (
	"fmt"
	"slices"
	"sync"
	"weak"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// memoType is the type of token filter that runs a chain of token filters
// on each word alone and remembers what became of it: the stem fields take
// every word of a note through a stemmer, which allocates, while most
// words are words seen before. Its config names the chain ("filters"). It
// suits filters that treat each token alone, as stemmers and
// normalizations do.
const memoType = "wikid_memo"

// memoSize bounds the words a memo remembers; past it, it starts over.
const memoSize = 1 << 15

func init() {
	err := registry.RegisterTokenFilter(memoType, func(config map[string]any, cache *registry.Cache) (analysis.TokenFilter, error) {
		names, ok := config["filters"].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: filters must be a list of names", memoType)
		}
		m := &memo{words: map[string][]byte{}}
		memos.add(m)
		for _, n := range names {
			name, ok := n.(string)
			if !ok {
				return nil, fmt.Errorf("%s: filter name %v is not a string", memoType, n)
			}
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			m.chain = append(m.chain, f)
		}
		return m, nil
	})
	if err != nil {
		panic(err)
	}
}

// memos are the memos in use, so that forgetWords reaches them all; an
// index closed lets its memos go.
var memos memoList

type memoList struct {
	mu   sync.Mutex
	list []weak.Pointer[memo]
}

func (l *memoList) add(m *memo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = slices.DeleteFunc(l.list, func(p weak.Pointer[memo]) bool { return p.Value() == nil })
	l.list = append(l.list, weak.Make(m))
}

// forgetWords empties every memo: after a build, which filled one for each
// language's chain, what they hold is memory an edit does not need.
func forgetWords() {
	memos.mu.Lock()
	defer memos.mu.Unlock()
	for _, p := range memos.list {
		if m := p.Value(); m != nil {
			m.mu.Lock()
			m.words = map[string][]byte{}
			m.mu.Unlock()
		}
	}
}

// memo is a token filter of memoType.
type memo struct {
	chain []analysis.TokenFilter
	mu    sync.RWMutex
	words map[string][]byte // word → its term after the chain; nil when dropped
}

// Filter implements analysis.TokenFilter. The terms it sets are shared
// between tokens: no filter may follow it that changes terms in place.
func (m *memo) Filter(in analysis.TokenStream) analysis.TokenStream {
	out := in[:0]
	for _, t := range in {
		m.mu.RLock()
		term, ok := m.words[string(t.Term)]
		m.mu.RUnlock()
		if !ok {
			word := string(t.Term)
			one := analysis.TokenStream{t}
			for _, f := range m.chain {
				one = f.Filter(one)
			}
			term = nil
			if len(one) == 1 {
				term = one[0].Term
			}
			m.mu.Lock()
			if len(m.words) >= memoSize {
				clear(m.words)
			}
			m.words[word] = term
			m.mu.Unlock()
		}
		if term != nil {
			t.Term = term
			out = append(out, t)
		}
	}
	return out
}
