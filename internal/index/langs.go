package index

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// langsOf holds the stem languages of an index, read by searches while
// Apply adds to them. They only grow until Reset: a language whose notes
// are gone costs a search a lookup that finds nothing.
type langsOf struct {
	p  atomic.Pointer[[]string]
	mu sync.Mutex // serializes add
}

func (l *langsOf) get() []string {
	if p := l.p.Load(); p != nil {
		return *p
	}
	return nil
}

func (l *langsOf) set(langs []string) { l.p.Store(&langs) }

// add adds langs to the set, and returns it and whether it grew. Batches
// that run at once add theirs one at a time.
func (l *langsOf) add(langs []string) ([]string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	all, grown := l.get(), false
	for _, lang := range langs {
		var added bool
		all, added = withLang(all, lang)
		grown = grown || added
	}
	if grown {
		l.set(all)
	}
	return all, grown
}

// withLang returns langs with lang added, and whether it was new.
func withLang(langs []string, lang string) ([]string, bool) {
	if slices.Contains(langs, lang) {
		return langs, false
	}
	out := append(slices.Clone(langs), lang)
	slices.Sort(out)
	return out, true
}

// encodeLangs and decodeLangs keep the stem languages in the index.
func encodeLangs(langs []string) []byte { return []byte(strings.Join(langs, "\n")) }

func decodeLangs(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
