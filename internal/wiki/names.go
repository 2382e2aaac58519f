package wiki

import (
	"context"
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// Resolve settings.
const (
	// DefaultResolveThreshold is the least Dice score a fuzzy match needs
	// unless the request says otherwise.
	DefaultResolveThreshold = 0.7
	// MaxResolveMatches is how many matches Resolve returns per name.
	MaxResolveMatches = 5
	// MaxResolveNames is how many names one request may resolve.
	MaxResolveNames = 100
)

// The strategies of Resolve.
const (
	ResolveExact    = "exact"
	ResolveFuzzy    = "fuzzy"
	ResolveSemantic = "semantic"
	// ResolveLink resolves each name as a wiki link [[name]] written in a
	// note at the root would: one match at most, MatchedByLink. It is the
	// review pages' strategy for the links of a note the link graph does
	// not hold (a deleted one).
	ResolveLink = "link"
)

// What a name matched, in NameMatch.MatchedBy.
const (
	MatchedByPath  = "path"
	MatchedByTitle = "title"
	MatchedByAlias = "alias"
	MatchedByLink  = "link"
)

// ResolveRequest turns names into note paths.
type ResolveRequest struct {
	Names []string
	// Strategy is exact (the default): the whole path, else the title,
	// else an alias equals the name, ignoring case and Unicode
	// normalization ("plan" does not match projects/alpha/plan by its
	// path); or fuzzy: the Sørensen–Dice coefficient of the character
	// bigrams of the lowercased name and of the note's base name (its
	// whole path when the name holds a '/'), title and aliases is at least
	// Threshold; or semantic: the notes whose text is nearest in meaning,
	// with a cosine similarity of at least Threshold (default the model's,
	// SemanticState.Threshold, else DefaultSemanticThreshold), when
	// semantic search is configured; or
	// link (ResolveLink): as a wiki link at the root resolves. Exact and
	// link answer from the link graph's tables, without reading notes.
	Strategy string
	// Threshold is the least fuzzy score or cosine similarity, in (0, 1];
	// 0 means the strategy's default.
	Threshold float64
	// Folder and Tag restrict the candidates.
	Folder string
	Tag    string
}

// ResolveResult holds one resolution per name, in the order asked.
type ResolveResult struct {
	Results []NameResolution
}

// NameResolution is what one name resolved to. A name that matches no note
// is not an error: Exists is false and Matches empty.
type NameResolution struct {
	Name    string
	Exists  bool
	Matches []NameMatch
}

// NameMatch is a note a name matched, best first.
type NameMatch struct {
	Path  string
	Title string
	Score float64
	// MatchedBy says what matched: path, title or alias.
	MatchedBy string
}

// Resolve finds the notes at HEAD that each name refers to, at most
// MaxResolveMatches per name. It returns INVALID_PARAMS for no names or too
// many, an unknown strategy, semantic when not configured, or a threshold out
// of range, and INVALID_PATH for a bad folder.
func (w *Wiki) Resolve(ctx context.Context, req ResolveRequest) (*ResolveResult, error) {
	if len(req.Names) == 0 || len(req.Names) > MaxResolveNames {
		return nil, Errorf(CodeInvalidParams, "give from 1 to %d names, not %d", MaxResolveNames, len(req.Names))
	}
	switch req.Strategy {
	case "":
		req.Strategy = ResolveExact
	case ResolveExact, ResolveFuzzy, ResolveLink:
	case ResolveSemantic:
		switch {
		case req.Threshold == 0:
			req.Threshold = w.semanticThreshold()
		case req.Threshold < 0 || req.Threshold > 1:
			return nil, Errorf(CodeInvalidParams, "threshold %g is not in (0, 1]", req.Threshold)
		}
		return w.resolveByMeaning(ctx, req)
	default:
		return nil, Errorf(CodeInvalidParams, "unknown strategy %q", req.Strategy).
			WithHint("use exact or fuzzy")
	}
	switch {
	case req.Threshold == 0:
		req.Threshold = DefaultResolveThreshold
	case req.Threshold < 0 || req.Threshold > 1:
		return nil, Errorf(CodeInvalidParams, "threshold %g is not in (0, 1]", req.Threshold)
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	if req.Strategy == ResolveExact || req.Strategy == ResolveLink {
		return w.resolveByGraph(ctx, req, folder)
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx, folder)
	if err != nil {
		return nil, err
	}
	queries := make([]nameQuery, len(req.Names))
	for i, name := range req.Names {
		queries[i] = newNameQuery(name)
	}
	for _, f := range files {
		if _, _, ok := note.SplitFileName(f.Path); !ok {
			continue
		}
		n, err := w.noteOf(ctx, snap, f)
		if err != nil {
			return nil, err
		}
		if req.Tag != "" && !n.HasTag(req.Tag) {
			continue
		}
		for i := range queries {
			queries[i].fuzzy(n, req.Threshold)
		}
	}
	return resolved(queries), nil
}

// resolveByGraph resolves names exactly, or as wiki links, by the link
// graph's tables of note paths, titles and aliases: no note is read but
// the candidates' when a tag restricts them.
func (w *Wiki) resolveByGraph(ctx context.Context, req ResolveRequest, folder string) (*ResolveResult, error) {
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
	}
	var snap Snapshot
	if req.Tag != "" {
		if _, snap, err = w.head(ctx); err != nil {
			return nil, err
		}
	}
	queries := make([]nameQuery, len(req.Names))
	for i, name := range req.Names {
		q := newNameQuery(name)
		var found []NameMatch
		if req.Strategy == ResolveLink {
			if ref, ok := g.ResolveName(name); ok {
				found = []NameMatch{{Path: ref.Path, Title: ref.Title, Score: 1, MatchedBy: MatchedByLink}}
			}
		} else {
			found = g.Named(name)
		}
		for _, m := range found {
			if folder != "" && !strings.HasPrefix(m.Path, folder+"/") {
				continue
			}
			if req.Tag != "" {
				_, n, err := w.readNote(ctx, snap, m.Path, "")
				if errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous) || err == nil && !n.HasTag(req.Tag) {
					continue
				}
				if err != nil {
					return nil, err
				}
			}
			q.matches = append(q.matches, m)
		}
		queries[i] = q
	}
	return resolved(queries), nil
}

// resolved orders each query's matches, best first, and keeps the first
// MaxResolveMatches.
func resolved(queries []nameQuery) *ResolveResult {
	res := &ResolveResult{Results: make([]NameResolution, len(queries))}
	for i, q := range queries {
		sort.Slice(q.matches, func(a, b int) bool {
			ma, mb := q.matches[a], q.matches[b]
			if ma.Score != mb.Score {
				return ma.Score > mb.Score
			}
			if ra, rb := q.rank(ma), q.rank(mb); ra != rb {
				return ra < rb
			}
			return ma.Path < mb.Path
		})
		if len(q.matches) > MaxResolveMatches {
			q.matches = q.matches[:MaxResolveMatches]
		}
		res.Results[i] = NameResolution{Name: q.name, Exists: len(q.matches) > 0, Matches: q.matches}
		if res.Results[i].Matches == nil {
			res.Results[i].Matches = []NameMatch{}
		}
	}
	return res
}

// nameQuery is one name being resolved.
type nameQuery struct {
	name    string
	lower   string // trimmed, as note.NameKey keys it
	path    string // the note path's note.NameKey, "" when the name is no valid path
	bigrams map[string]int
	size    int // number of bigrams
	matches []NameMatch
}

func newNameQuery(name string) nameQuery {
	q := nameQuery{name: name, lower: note.NameKey(strings.TrimSpace(name))}
	if p, _, err := note.CleanPath(name); err == nil {
		q.path = note.NameKey(p)
	}
	q.bigrams, q.size = bigrams(q.lower)
	return q
}

// fuzzy records n if its best Dice score reaches threshold.
func (q *nameQuery) fuzzy(n *note.Note, threshold float64) {
	base := path.Base(n.Path)
	if strings.Contains(q.lower, "/") {
		base = n.Path
	}
	best, by := q.dice(base), MatchedByPath
	if s := q.dice(n.Title); s > best {
		best, by = s, MatchedByTitle
	}
	for _, a := range n.Aliases {
		if s := q.dice(a); s > best {
			best, by = s, MatchedByAlias
		}
	}
	if best >= threshold {
		q.matches = append(q.matches, NameMatch{Path: n.Path, Title: n.Title, Score: round3(best), MatchedBy: by})
	}
}

// dice is the Sørensen–Dice coefficient of the bigram multisets of the
// name and s, both lowercased in normal form C. Strings too short for a
// bigram score 1 when equal and 0 otherwise.
func (q *nameQuery) dice(s string) float64 {
	s = note.NameKey(strings.TrimSpace(s))
	if s == q.lower {
		return 1
	}
	other, size := bigrams(s)
	if q.size == 0 || size == 0 {
		return 0
	}
	common := 0
	for g, n := range other {
		common += min(n, q.bigrams[g])
	}
	return 2 * float64(common) / float64(q.size+size)
}

// bigrams returns the multiset of adjacent character pairs of s.
func bigrams(s string) (map[string]int, int) {
	r := []rune(s)
	if len(r) < 2 {
		return nil, 0
	}
	m := make(map[string]int, len(r)-1)
	for i := 0; i+1 < len(r); i++ {
		m[string(r[i:i+2])]++
	}
	return m, len(r) - 1
}

// rank orders matches of equal score: the whole path, the end of the path
// (fuzzy), the title, then an alias.
func (q *nameQuery) rank(m NameMatch) int {
	switch {
	case m.MatchedBy == MatchedByPath && note.NameKey(m.Path) == q.path:
		return 0
	case m.MatchedBy == MatchedByPath:
		return 1
	case m.MatchedBy == MatchedByTitle:
		return 2
	}
	return 3
}

func round3(f float64) float64 {
	return float64(int(f*1000+0.5)) / 1000
}
