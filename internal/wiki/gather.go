package wiki

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/gather"
	"github.com/wikid/wikid/internal/note"
)

// Context budgets, in tokens estimated at four bytes each.
const (
	DefaultContextBudget = 1500
	MinContextBudget     = 200
	MaxContextBudget     = 20000
)

const (
	// contextRankShare is the part of a hit's prior that its search
	// score gives, relative to the best hit's: a text search's scores
	// fall fast, a hybrid search's (see fuse) slowly. Measured on the
	// labelled sets of package quality with the sentence encoder: a right
	// note's section leads the answer for 67% of the Anki manual's
	// questions and of the Docker CLI's at 0.85 (in it: 88% and 83%); at
	// 0.3, with a fusion before this one, for 60% of the Anki manual's.
	// Text search keeps 0.3: at 0.85 only its best note's sections are
	// chosen.
	contextRankShare       = 0.3
	contextHybridRankShare = 0.85
	// contextHits is how many search hits are read for sections: 20
	// brought a right note's section for more of the labelled sets'
	// questions than 12 (72% and 82% against 70% and 78%).
	contextHits = 20
	// contextLinked is how many notes linked to or from the best hits
	// join them, and contextLinkers how many of the best hits lend their
	// links.
	contextLinked  = 8
	contextLinkers = 4
	// contextOverhead is what a section costs on the wire besides its
	// path, heading and text: the field names, its lines and version.
	contextOverhead = 100
	// contextMore is how many notes a result names that gave no section,
	// and contextMoreCost what each costs at most, title and path aside.
	contextMore     = 5
	contextMoreCost = 30
	// contextVersionLen is how much of a version a section cites: enough
	// for expected_version, which takes a prefix of 7 or more.
	contextVersionLen = 12
)

// ContextRequest asks for the sections of the wiki that answer a question.
type ContextRequest struct {
	// Question is a question or a topic, in words.
	Question string
	// Budget is the most tokens the sections may cost:
	// DefaultContextBudget when 0, else MinContextBudget to
	// MaxContextBudget.
	Budget int
	// Folder limits the notes to a folder.
	Folder string
}

// ContextResult is the answer to a ContextRequest.
type ContextResult struct {
	// Query is the search that found the notes, in the query language.
	Query string
	// Sections are the chosen sections, best first.
	Sections []ContextSection
	// More names notes that matched but gave no section within the
	// budget, best first.
	More []NoteRef
	// Tokens is the estimated cost of the result, out of Budget: four
	// bytes a token, of the sections with the fields that cite them, the
	// query and the notes named as more.
	Tokens int
	Budget int
	// Scan is set when the search behind the result answered from a scan
	// while the search index was built (see SearchResult.Scan): an empty
	// result proves nothing unless it is complete.
	Scan *ScanInfo
}

// ContextSection is a run of lines of a note, cited so that it can be read
// on or edited.
type ContextSection struct {
	Path string
	// Heading is the chain of headings above the lines, "A > B"; empty
	// for the text before the first heading.
	Heading            string
	StartLine, EndLine int
	// Version is the note's version at HEAD, shortened; it serves as an
	// expected version.
	Version string
	Text    string
	// Links are the other notes of the result that these lines link to.
	Links []string
}

// candidate is a note that may answer, before it is read.
type candidate struct {
	path, title string
	prior       float64
}

// GatherContext returns the few sections of the notes at HEAD that best
// answer a question, within a token budget. It searches for the
// question's words as a question (fused with meaning when the wiki has
// semantic search), adds the notes the best hits link to and from,
// favours what changed recently, and scores every section of those notes
// by the words it holds and, with semantic search, by whether it is the
// note's part nearest in meaning (see package gather). It returns INVALID_PARAMS for a
// question without words to search for or a budget out of range, and the
// errors of Search.
func (w *Wiki) GatherContext(ctx context.Context, req ContextRequest) (*ContextResult, error) {
	budget, err := bounded("budget", req.Budget, DefaultContextBudget, MaxContextBudget)
	if err != nil {
		return nil, err
	}
	if budget < MinContextBudget {
		return nil, Errorf(CodeInvalidParams, "budget %d is too small: a section needs at least %d tokens", budget, MinContextBudget).
			WithHint("give a budget of at least %d", MinContextBudget)
	}
	terms := gather.Terms(req.Question)
	if len(terms) == 0 {
		return nil, Errorf(CodeInvalidParams, "the question has no words to search for").
			WithHint("ask in the words the notes would use, for example \"launch decision\"")
	}
	folder := ""
	if req.Folder != "" {
		if folder, err = note.CleanFolder(req.Folder); err != nil {
			return nil, err
		}
	}
	// The question's words, side by side, are a question to search: the
	// notes with most of them, fused with those nearest in meaning when
	// the wiki has semantic search.
	query := gather.Question(terms)
	mode := SearchText
	if w.semantic != nil {
		mode = SearchHybrid
	}
	res, err := w.Search(ctx, SearchParams{Query: query, Folder: folder, Limit: contextHits, Mode: mode, meaning: req.Question})
	if err != nil {
		return nil, err
	}
	// The link graph adds linked notes and the links between the sections
	// (none when it cannot be brought to HEAD).
	g, _ := w.graphAt(ctx)
	share := contextRankShare
	if res.Mode == SearchHybrid {
		share = contextHybridRankShare
	}
	cands := w.contextCandidates(g, res.Results, folder, share)

	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	near := w.nearestChunks(ctx, req.Question, cands)
	notes := make([]gather.Candidate, 0, len(cands))
	versions := make([]string, 0, len(cands))
	read := make([]candidate, 0, len(cands))
	for _, c := range cands {
		f, n, err := w.readNote(ctx, snap, c.path, "")
		if err != nil {
			continue // gone since the index saw it
		}
		notes = append(notes, gather.Candidate{Path: n.Path, Prior: c.prior, Sections: gather.Split(n), Nearest: near[n.Path]})
		versions = append(versions, f.Blob[:min(len(f.Blob), contextVersionLen)])
		read = append(read, c)
	}
	// The query and the notes named as more come out of the budget too: a
	// tenth of it is kept for the notes.
	picks, _ := gather.Pack(notes, terms, budget-gather.Tokens(len(query))-budget/10, contextOverhead)

	out := &ContextResult{Query: query, Sections: make([]ContextSection, 0, len(picks)), Budget: budget, Scan: res.Scan}
	size := len(query)
	picked := map[string]bool{}
	for _, p := range picks {
		picked[notes[p.Note].Path] = true
	}
	for _, p := range picks {
		s := ContextSection{
			Path: notes[p.Note].Path, Heading: p.Heading, StartLine: p.Start, EndLine: p.End,
			Version: versions[p.Note], Text: p.Text,
			Links: linksBetween(g, notes[p.Note].Path, p.Start, p.End, picked),
		}
		size += contextOverhead + len(s.Path) + len(s.Heading) + len(s.Text)
		for _, l := range s.Links {
			size += len(l) + 3
		}
		out.Sections = append(out.Sections, s)
	}
	for _, c := range read {
		if len(out.More) == contextMore {
			break
		}
		cost := contextMoreCost + len(c.path) + len(c.title)
		if !picked[c.path] && gather.Tokens(size+cost) <= budget {
			out.More = append(out.More, NoteRef{Path: c.path, Title: c.title})
			size += cost
		}
	}
	out.Tokens = gather.Tokens(size)
	return out, nil
}

// nearestChunks returns, for the candidates the semantic index has
// embedded, the lines of their chunk nearest in meaning to the question
// and its cosine similarity; nil without semantic search or when the
// question cannot be embedded.
func (w *Wiki) nearestChunks(ctx context.Context, question string, cands []candidate) map[string]*gather.Near {
	if w.semantic == nil {
		return nil
	}
	in := make(map[string]bool, len(cands))
	for _, c := range cands {
		in[c.path] = true
	}
	near, err := w.semantic.Nearest(ctx, question, len(cands), func(p string) bool { return in[p] })
	if err != nil {
		return nil
	}
	out := make(map[string]*gather.Near, len(near))
	for _, n := range near {
		out[n.Path] = &gather.Near{Start: n.Start, End: n.End, Score: n.Score}
	}
	return out
}

// contextCandidates returns the notes to read for a question: the search
// hits, each with a prior from its score (share of it) and how recently
// it changed, and the notes the best hits link to or from in g (nil for
// none), with less. A note linked from several of the best hits gains
// for each.
func (w *Wiki) contextCandidates(g Graph, hits []SearchHit, folder string, share float64) []candidate {
	now := w.opts.Now()
	var out []candidate
	at := map[string]int{}
	for i, h := range hits {
		// A hit's prior is 1-share to 1 by its score.
		prior := 1 - share
		if top := hits[0].Score; top > 0 {
			prior += share * h.Score / top
		}
		if !h.Modified.IsZero() {
			days := now.Sub(h.Modified).Hours() / 24
			prior *= 1 + 0.15*math.Exp(-max(days, 0)/60)
		}
		at[h.Path] = i
		out = append(out, candidate{path: h.Path, title: h.Title, prior: prior})
	}
	if g == nil || len(hits) == 0 {
		return out
	}
	added := 0
	for i := range min(len(hits), contextLinkers) {
		from := out[i]
		var linked []NoteRef
		for _, l := range g.Outlinks(from.path) {
			if l.Path != "" {
				linked = append(linked, NoteRef{Path: l.Path, Title: l.Title})
			}
		}
		for _, b := range g.BacklinksLined(from.path, 0) {
			linked = append(linked, NoteRef{Path: b.Path, Title: b.Title})
		}
		for _, l := range linked {
			if _, ok := g.Lookup(l.Path); !ok || l.Path == from.path || folder != "" && !strings.HasPrefix(l.Path, folder+"/") {
				continue // a file, the note itself, or outside the folder
			}
			if j, ok := at[l.Path]; ok {
				out[j].prior += 0.05
				continue
			}
			if added == contextLinked {
				continue
			}
			added++
			at[l.Path] = len(out)
			out = append(out, candidate{path: l.Path, title: l.Title, prior: 0.5 * from.prior})
		}
	}
	return out
}

// linksBetween returns the notes of picked that a note's lines start to
// end link to in g (nil for none), other than itself, in the order written.
func linksBetween(g Graph, notePath string, start, end int, picked map[string]bool) []string {
	if g == nil {
		return nil
	}
	var out []string
	for _, l := range g.Outlinks(notePath) {
		if l.Line >= start && l.Line <= end && l.Path != notePath && picked[l.Path] && !slices.Contains(out, l.Path) {
			out = append(out, l.Path)
		}
	}
	return out
}
