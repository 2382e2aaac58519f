package gather

import (
	"math"
	"slices"
	"strings"
)

const (
	// maxShare is the part of the budget one section may take; a longer
	// one is cut to its lines around the terms.
	maxShare = 0.6
	// maxPerNote is how many sections of one note are chosen at most, and
	// maxSections how many in all.
	maxPerNote  = 3
	maxSections = 8
	// minShare is the least part of the best section's score another
	// section needs to be chosen: the rest say too little.
	minShare = 0.3
	// bytesPerToken is the estimate of a token's size: English prose and
	// JSON run at about four bytes a token.
	bytesPerToken = 4
)

// Tokens estimates the tokens of n bytes of text.
func Tokens(n int) int { return (n + bytesPerToken - 1) / bytesPerToken }

// Candidate is a note that may answer the question.
type Candidate struct {
	Path string
	// Prior is how likely the note is to answer, before its text is read:
	// from its search rank, the links to it from the best hits and how
	// recently it changed; about 0 to 1.
	Prior    float64
	Sections []Section
	// Nearest is the note's run of lines nearest in meaning to the
	// question, when the wiki has semantic search; nil otherwise.
	Nearest *Near
}

// Near is a run of a note's lines and its cosine similarity to the
// question.
type Near struct {
	Start, End int
	Score      float64
}

// meaningWeight is what the meaning of a section adds to the words it
// holds: a section within the note's run nearest in meaning scores as if
// it held meaningWeight times the cosine more words of average rarity.
// Measured on the labelled sets of package quality: 1 brings a right
// note's section for 72% and 82% of their questions, 0 for 70% and 80%.
const meaningWeight = 1

// Pick is a section chosen to answer: which note, under which heading,
// and the lines returned, which may be fewer than the section's.
type Pick struct {
	// Note is the index of the note in the candidates.
	Note       int
	Heading    string
	Start, End int
	Text       string
	Score      float64
	// Tokens is the estimated cost of the pick, its overhead included.
	Tokens int
}

// scored is a section with its score and the terms on each line.
type scored struct {
	note, section int
	score         float64
	lineTerms     []int // distinct terms on each line
}

// Pack chooses the sections of the candidates that best answer a question
// with the given terms, within budget tokens, and returns them best first
// with the tokens they cost. overhead is what each pick costs in bytes
// besides its path, heading and text (the fields that cite it).
//
// A section scores by the terms it holds, each weighted by how rare it is
// among all the candidates' sections, counting more when the section's own
// heading holds it and a little when only a heading above does, damped for
// long sections and multiplied by its note's prior. Sections without a
// term, or scoring under minShare of the best, are never chosen, and at
// most maxSections are. A section whose text repeats one already chosen is
// skipped; a note gives at most maxPerNote sections, each further one
// scoring less; a section too long for what is left of the budget, or for
// maxShare of it, is cut to the lines around its best line.
func Pack(cands []Candidate, terms []Term, budget, overhead int) ([]Pick, int) {
	if len(terms) == 0 {
		return nil, 0
	}
	// Which terms each line and heading holds.
	type info struct {
		own, chain []bool // in the section's own heading, in those above
		lineTerms  [][]bool
		words      int
	}
	infos := make([][]info, len(cands))
	df := make([]int, len(terms))
	total := 0
	for c, cand := range cands {
		infos[c] = make([]info, len(cand.Sections))
		for s, sec := range cand.Sections {
			in := &infos[c][s]
			in.own = holds(words(strings.ToLower(sec.own)), terms)
			in.chain = holds(words(strings.ToLower(sec.Heading)), terms)
			in.lineTerms = make([][]bool, len(sec.Lines))
			has := slices.Clone(in.chain)
			for l, line := range sec.Lines {
				ws := words(strings.ToLower(line))
				in.words += len(ws)
				in.lineTerms[l] = holds(ws, terms)
				for t, ok := range in.lineTerms[l] {
					has[t] = has[t] || ok
				}
			}
			for t, ok := range has {
				if ok {
					df[t]++
				}
			}
			total++
		}
	}
	idf := make([]float64, len(terms))
	meanIDF := 0.0
	for t := range terms {
		idf[t] = math.Log(1 + float64(total)/float64(1+df[t]))
		meanIDF += idf[t] / float64(len(terms))
	}

	var all []scored
	for c, cand := range cands {
		for s, sec := range cand.Sections {
			in := infos[c][s]
			sc := scored{note: c, section: s, lineTerms: make([]int, len(in.lineTerms))}
			raw := 0.0
			for t := range terms {
				inLines := 0
				for l := range in.lineTerms {
					if in.lineTerms[l][t] {
						inLines++
					}
				}
				w := 0.0
				if inLines > 0 {
					// More lines with the term count, but less and less.
					w = 1 + 0.25*math.Log(float64(inLines))
				}
				switch {
				case in.own[t]:
					w++
				case in.chain[t]:
					w += 0.3 // a heading above, or the note's title
				}
				raw += w * idf[t]
			}
			for l := range in.lineTerms {
				for _, ok := range in.lineTerms[l] {
					if ok {
						sc.lineTerms[l]++
					}
				}
			}
			if near := cand.Nearest; near != nil && sec.Start <= near.End && near.Start <= sec.End {
				raw += meaningWeight * max(near.Score, 0) * meanIDF
			}
			if raw == 0 {
				continue
			}
			sc.score = raw / (1 + math.Log(1+float64(in.words)/60)) * cand.Prior
			all = append(all, sc)
		}
	}

	top := 0.0
	for _, sc := range all {
		top = max(top, sc.score)
	}
	var picks []Pick
	used := 0
	perNote := map[int]int{}
	seen := map[string]bool{}
	for len(all) > 0 {
		best := 0
		for i := range all {
			if all[i].score > all[best].score {
				best = i
			}
		}
		sc := all[best]
		all = slices.Delete(all, best, best+1)
		if sc.score < minShare*top || len(picks) == maxSections {
			break
		}
		if perNote[sc.note] >= maxPerNote {
			continue
		}
		cand := cands[sc.note]
		sec := cand.Sections[sc.section]
		fixed := overhead + len(cand.Path) + len(sec.Heading)
		room := min(budget-used, int(maxShare*float64(budget)))*bytesPerToken - fixed
		from, to, ok := window(sec.Lines, sc.lineTerms, room)
		if !ok {
			continue
		}
		text := strings.Join(sec.Lines[from:to+1], "\n")
		key := strings.Join(strings.Fields(strings.ToLower(text)), " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		cost := Tokens(fixed + len(text))
		picks = append(picks, Pick{
			Note: sc.note, Heading: sec.Heading, Start: sec.Start + from, End: sec.Start + to,
			Text: text, Score: sc.score, Tokens: cost,
		})
		used += cost
		perNote[sc.note]++
		// The note's other sections say less now that one of its sections
		// is in.
		for i := range all {
			if all[i].note == sc.note {
				all[i].score *= 0.7
			}
		}
	}
	return picks, used
}

// holds reports, for each term, whether one of the words matches it.
func holds(ws []string, terms []Term) []bool {
	out := make([]bool, len(terms))
	for t, term := range terms {
		for _, w := range ws {
			if term.matches(w) {
				out[t] = true
				break
			}
		}
	}
	return out
}

// window returns the lines [from, to] of a section that fit in room bytes:
// all of them when they fit, else the run around the line with the most
// terms (the first line when only the heading has them), grown a line at a
// time downwards and upwards while it fits. ok is false when that line
// does not fit.
func window(lines []string, lineTerms []int, room int) (from, to int, ok bool) {
	size := func(from, to int) int {
		n := to - from // newlines
		for _, l := range lines[from : to+1] {
			n += len(l)
		}
		return n
	}
	if room <= 0 {
		return 0, 0, false
	}
	if size(0, len(lines)-1) <= room {
		return 0, len(lines) - 1, true
	}
	best := -1
	for l, n := range lineTerms {
		if n > 0 && (best < 0 || n > lineTerms[best]) {
			best = l
		}
	}
	if best < 0 {
		best = 0 // the terms are in the heading: the section's start
	}
	if len(lines[best]) > room {
		return 0, 0, false
	}
	from, to = best, best
	for grew := true; grew; {
		grew = false
		if to+1 < len(lines) && size(from, to+1) <= room {
			to++
			grew = true
		}
		if from > 0 && size(from-1, to) <= room {
			from--
			grew = true
		}
	}
	return from, to, true
}
