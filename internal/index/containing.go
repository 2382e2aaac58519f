package index

import (
	"context"
	"strings"

	"github.com/blevesearch/bleve/v2/search/query"
)

// minRun is the shortest run of word characters that Containing looks up:
// a shorter one is inside too many words to narrow anything.
const minRun = 3

// Containing returns the paths of the notes under folder whose text may
// hold every one of strs, ignoring case. It looks up the runs of ASCII
// letters, digits and '_' in each string: the word segmentation of the
// text analyzer never splits such a run, so wherever the string occurs,
// each run is part of one indexed word of the frontmatter or the body, and
// a note whose words contain none of a run's occurrences cannot hold the
// string. Runs shorter than three characters are not looked up; it reports
// false when no run is left. Notes whose words the analyzer may have
// garbled (see unsure) are always returned.
func (x *Index) Containing(ctx context.Context, strs []string, folder string) (_ []string, _ bool, err error) {
	defer x.guard(&err)
	defer faultGuard()()
	var runs []string
	for _, s := range strs {
		for _, r := range wordRuns(s) {
			if len(r) >= minRun {
				runs = append(runs, strings.ToLower(r))
			}
		}
	}
	if len(runs) == 0 {
		return nil, false, nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return nil, false, ErrClosed
	}
	holds := make([]query.Query, 0, len(runs))
	for _, r := range runs {
		// The wildcard's only special characters are '*' and '?', which
		// a run never holds.
		holds = append(holds, query.NewDisjunctionQuery([]query.Query{
			substring(fieldBody, r), substring(fieldFront, r),
		}))
	}
	unsure := query.NewTermQuery("true")
	unsure.SetField(fieldUnsure)
	q := query.Query(query.NewDisjunctionQuery([]query.Query{query.NewConjunctionQuery(holds), unsure}))
	if f := strings.Trim(folder, "/"); f != "" {
		c := &compiler{bi: x.bi, im: x.im}
		q = query.NewConjunctionQuery([]query.Query{q, c.keyword(fieldFolders, f, false)})
	}
	paths, err := x.matchingPaths(ctx, q)
	if err != nil {
		return nil, false, err
	}
	return paths, true, nil
}

// substring matches the notes with a word in field that contains s.
func substring(field, s string) query.Query {
	q := query.NewWildcardQuery("*" + s + "*")
	q.SetField(field)
	return q
}

// wordRuns returns the maximal runs of ASCII letters, digits and '_' in s
// that hold a letter or a digit.
func wordRuns(s string) []string {
	var out []string
	start, alnum := -1, false
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			isAlnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
			if isAlnum || c == '_' {
				if start < 0 {
					start, alnum = i, false
				}
				alnum = alnum || isAlnum
				continue
			}
		}
		if start >= 0 && alnum {
			out = append(out, s[start:i])
		}
		start = -1
	}
	return out
}
