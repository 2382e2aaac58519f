package index

import (
	"slices"
	"strings"
	"sync/atomic"
)

// langsOf holds the stem languages of an index, read by searches while
// Apply adds to them. They only grow until Reset: a language whose notes
// are gone costs a search a lookup that finds nothing.
type langsOf struct{ p atomic.Pointer[[]string] }

func (l *langsOf) get() []string {
	if p := l.p.Load(); p != nil {
		return *p
	}
	return nil
}

func (l *langsOf) set(langs []string) { l.p.Store(&langs) }

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
