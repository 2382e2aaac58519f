package semantic

import (
	"strings"

	"github.com/wikid/wikid/internal/gather"
	"github.com/wikid/wikid/internal/note"
)

// maxChunk is the most text, in bytes, one chunk embeds: sections are
// merged up to it, and a longer section is cut at line ends.
const maxChunk = 1500

// Chunk is a piece of a note that is embedded as one vector: sections
// that follow each other, or part of a long one.
type Chunk struct {
	// Text is what is embedded: each section's heading chain and lines,
	// and, in the first chunk, the title the frontmatter gives (a title
	// that comes from the file name is left out, so a move changes no
	// chunk).
	Text string
	// Start and End are the chunk's first and last line in the file.
	Start, End int
}

// Chunks cuts a note into the chunks it is embedded as, in file order;
// none for a note without text.
func Chunks(n *note.Note) []Chunk {
	var out []Chunk
	var b strings.Builder
	start, end := 0, 0
	flush := func() {
		if b.Len() > 0 {
			out = append(out, Chunk{Text: b.String(), Start: start, End: end})
		}
		b.Reset()
		start = 0
	}
	add := func(text string, from, to int) {
		if b.Len() > 0 && b.Len()+1+len(text) > maxChunk {
			flush()
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if start == 0 {
			start = from
		}
		b.WriteString(text)
		end = to
	}
	if n.TitleSource == note.TitleFromFrontmatter && strings.TrimSpace(n.Title) != "" {
		add(strings.TrimSpace(n.Title), n.BodyLine, n.BodyLine)
	}
	for _, s := range gather.Split(n) {
		head := ""
		if s.Heading != "" {
			head = s.Heading + "\n"
		}
		text := head + strings.Join(s.Lines, "\n")
		if len(text) <= maxChunk {
			add(text, s.Start, s.End)
			continue
		}
		// A long section: pieces of whole lines, each under its heading.
		var piece strings.Builder
		from := s.Start
		for i, l := range s.Lines {
			if piece.Len() > 0 && len(head)+piece.Len()+1+len(l) > maxChunk {
				add(head+piece.String(), from, s.Start+i-1)
				flush()
				piece.Reset()
				from = s.Start + i
			}
			if piece.Len() > 0 {
				piece.WriteByte('\n')
			}
			piece.WriteString(cutString(l, maxChunk-len(head)))
		}
		if piece.Len() > 0 {
			add(head+piece.String(), from, s.End)
		}
	}
	flush()
	return out
}

// cutString cuts s to at most n bytes at a character boundary.
func cutString(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
