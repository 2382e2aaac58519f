package index

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/wikid/wikid/internal/wiki"
)

const (
	// snippetWidth is roughly how many characters of a line a snippet
	// shows, marks and ellipses aside.
	snippetWidth = 120
	// snippetLead is how much of the line before the first match a cut
	// snippet keeps.
	snippetLead = 40
)

// span is the byte range of one match in the body.
type span struct{ start, end int }

// snippets returns up to most one-line snippets of body around the
// matches bleve located in it, each with its line number in the file
// (bodyLine is the file line of the body's first line) and the matches
// marked with «». Lines that match more distinct terms come first, and a
// line that only repeats the note's title, as its heading does, comes last:
// the hit gives the title already. The snippets are returned in line order.
func snippets(body string, bodyLine int, title string, locs search.TermLocationMap, most int) []wiki.Snippet {
	if len(locs) == 0 {
		return nil
	}
	type line struct {
		start, end int // byte range, without the newline
		spans      []span
		terms      map[string]bool
		title      bool // the line only repeats the title
	}
	var spans []span
	termOf := map[span]string{}
	for term, ls := range locs {
		for _, l := range ls {
			s := span{int(l.Start), int(l.End)}
			if s.start < 0 || s.end > len(body) || s.start >= s.end {
				continue
			}
			spans = append(spans, s)
			termOf[s] = term
		}
	}
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})

	// Walk the body once, assigning the sorted spans to their lines.
	var lines []*line
	lineNo := map[*line]int{}
	n, lineStart, i := 0, 0, 0
	for i < len(spans) {
		lineEnd := strings.IndexByte(body[lineStart:], '\n')
		if lineEnd < 0 {
			lineEnd = len(body)
		} else {
			lineEnd += lineStart
		}
		var cur *line
		for i < len(spans) && spans[i].start < lineEnd+1 {
			orig := spans[i]
			i++
			s := orig
			if s.end > lineEnd {
				s.end = lineEnd // a match never spans lines, but be safe
			}
			if cur == nil {
				cur = &line{start: lineStart, end: lineEnd, terms: map[string]bool{}}
				lines = append(lines, cur)
				lineNo[cur] = n
			}
			if k := len(cur.spans); k > 0 {
				prev := &cur.spans[k-1]
				if s.start < prev.end {
					// Overlapping matches, as the bigrams of CJK text
					// are, share one mark.
					prev.end = max(prev.end, s.end)
					cur.terms[termOf[orig]] = true
					continue
				}
				if strings.TrimLeft(body[prev.end:s.start], " \t") == "" {
					// Adjacent matches, as in a phrase, share one mark.
					prev.end = s.end
					cur.terms[termOf[orig]] = true
					continue
				}
			}
			cur.spans = append(cur.spans, s)
			cur.terms[termOf[orig]] = true
		}
		if lineEnd >= len(body) {
			break
		}
		lineStart = lineEnd + 1
		n++
	}

	best := make([]*line, len(lines))
	copy(best, lines)
	for _, l := range best {
		l.title = repeatsTitle(body[l.start:l.end], title)
	}
	sort.SliceStable(best, func(a, b int) bool {
		if best[a].title != best[b].title {
			return best[b].title
		}
		return len(best[a].terms) > len(best[b].terms)
	})
	if len(best) > most {
		best = best[:most]
	}
	sort.Slice(best, func(a, b int) bool { return best[a].start < best[b].start })

	if bodyLine < 1 {
		bodyLine = 1
	}
	out := make([]wiki.Snippet, 0, len(best))
	for _, l := range best {
		out = append(out, wiki.Snippet{
			Line: bodyLine + lineNo[l],
			Text: markLine(body, l.start, l.end, l.spans),
		})
	}
	return out
}

// markLine renders body[start:end] with the spans marked «», cut to about
// snippetWidth characters around the first span, with "…" where it was cut.
func markLine(body string, start, end int, spans []span) string {
	// Trim the line's surrounding white space.
	for start < end {
		r, size := utf8.DecodeRuneInString(body[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		start += size
	}
	for end > start {
		r, size := utf8.DecodeLastRuneInString(body[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= size
	}
	from, to := start, end
	if utf8.RuneCountInString(body[start:end]) > snippetWidth {
		first := spans[0]
		from = back(body, start, first.start, snippetLead)
		to = forward(body, from, end, snippetWidth)
		if to == end {
			// The match is near the end: use the width before it.
			from = min(from, back(body, start, end, snippetWidth))
		}
		to = max(to, first.end)
		for from < first.start && body[from] == ' ' {
			from++
		}
		for to > first.end && body[to-1] == ' ' {
			to--
		}
	}
	var b strings.Builder
	if from > start {
		b.WriteString("…")
	}
	at := from
	for _, s := range spans {
		if s.start < from || s.end > to {
			continue
		}
		b.WriteString(body[at:s.start])
		b.WriteString("«")
		b.WriteString(body[s.start:s.end])
		b.WriteString("»")
		at = s.end
	}
	b.WriteString(body[at:to])
	if to < end {
		b.WriteString("…")
	}
	return b.String()
}

// back returns the offset about n characters before pos, but not before
// min, moved forward to the start of a word when one is near.
func back(s string, min, pos, n int) int {
	i := pos
	for k := 0; k < n && i > min; k++ {
		_, size := utf8.DecodeLastRuneInString(s[min:i])
		i -= size
	}
	if i == min {
		return min
	}
	for j := i; j < pos && j-i < 20; {
		if r, _ := utf8.DecodeLastRuneInString(s[:j]); unicode.IsSpace(r) {
			return j
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		j += size
	}
	return i
}

// forward returns the offset about n characters after pos, but not after
// max, moved back to the end of a word when one is near.
func forward(s string, pos, max, n int) int {
	i := pos
	for k := 0; k < n && i < max; k++ {
		_, size := utf8.DecodeRuneInString(s[i:max])
		i += size
	}
	if i == max {
		return max
	}
	for j := i; j > pos && i-j < 20; {
		if r, _ := utf8.DecodeRuneInString(s[j:]); unicode.IsSpace(r) {
			return j
		}
		_, size := utf8.DecodeLastRuneInString(s[pos:j])
		j -= size
	}
	return i
}

// repeatsTitle reports whether a line is only the title, as a heading or
// on its own.
func repeatsTitle(line, title string) bool {
	line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
	return line != "" && line == strings.TrimSpace(title)
}
