package note

import "bytes"

// Heading is an ATX or setext heading outside fenced code.
type Heading struct {
	Level int
	Text  string
	Line  int
	// Start is the offset of the heading's first byte; ContentStart the
	// offset just after the heading (after a setext underline); End the end
	// of its section: the next heading of the same or a higher level, or EOF.
	Start        int
	ContentStart int
	End          int
	// Parent is the index in Note.Headings of the enclosing heading, or -1.
	Parent int
}

// LinkKind distinguishes the forms of a link.
type LinkKind string

// Link kinds.
const (
	LinkWiki     LinkKind = "wiki"     // [[Target]], [[Target|label]], [[Target#Heading]], [[#Heading]]
	LinkEmbed    LinkKind = "embed"    // ![[Target]]
	LinkMarkdown LinkKind = "markdown" // [label](relative/path.md), [label](file.pdf), ![alt](image.png)
)

// Link is a link outside code, with where it sits.
type Link struct {
	Kind LinkKind
	// Target is the target as written, without heading or label; empty for
	// [[#Heading]]. For markdown links it is the URL-decoded relative path.
	Target string
	// Embed marks a markdown image, ![alt](path); its Label is the alt
	// text. Wiki embeds have their own kind, LinkEmbed.
	Embed   bool
	Heading string
	Label   string
	Line    int
	// Start and End are the byte range of the whole link; TargetStart and
	// TargetEnd the range of the target text, for rewriting it on a move.
	Start       int
	End         int
	TargetStart int
	TargetEnd   int
}

// body is what scanBody finds in a note's body.
type body struct {
	Headings []Heading
	Links    []Link
	// Tags are inline #tags outside code, as written, without '#'.
	Tags []string
}

// scanBody scans src from offset start, which is on line startLine, in one
// pass over its lines. It never fails: bytes it cannot make sense of are
// text.
//
// The block structure follows CommonMark closely enough for a note's
// outline: fenced code (``` and ~~~, also inside block quotes and list
// items), indented code (only where it cannot be a paragraph or list
// continuation), HTML comment blocks, ATX and setext headings, thematic
// breaks, lists, block quotes and tables. Code and comments hide headings,
// links and tags. Everything else is text, scanned for links and tags one
// paragraph at a time, so that code spans and comments may span lines.
func scanBody(src []byte, start, startLine int) body {
	start = max(0, min(start, len(src)))
	s := &scanner{src: src}
	num := startLine
	for pos := start; pos < len(src); num++ {
		end, next := len(src), len(src)
		if i := bytes.IndexByte(src[pos:], '\n'); i >= 0 {
			end, next = pos+i, pos+i+1
		}
		if end > pos && src[end-1] == '\r' {
			end--
		}
		s.line(srcLine{start: pos, end: end, next: next, num: num})
		pos = next
	}
	s.flushText()
	finishHeadings(s.b.Headings, len(src))
	return s.b
}

// srcLine is one line of the source: [start, end) is its text without the
// line ending, next the offset of the following line, num its number.
type srcLine struct {
	start, end, next, num int
}

// paraKind is the kind of paragraph a text line continues.
type paraKind int

const (
	paraNone  paraKind = iota // no open paragraph: after a blank line or a block
	paraPlain                 // a plain paragraph, which a setext underline turns into a heading
	paraOther                 // list item, block quote or table text: never a setext heading
)

// scanner holds the state of scanBody between lines.
type scanner struct {
	src []byte
	b   body

	fence    fence // the open fenced code block, if fence.char != 0
	indented bool  // inside indented code
	comment  bool  // inside an HTML comment block
	inList   bool  // after a list item, until a line at column 0 ends the list

	para      paraKind
	paraStart srcLine // first line of the open plain paragraph

	// text is the run of text lines waiting to be scanned for links and
	// tags: [textStart, textEnd), beginning on line textNum.
	hasText            bool
	textStart, textEnd int
	textNum            int
}

// line takes the next line of the source.
func (s *scanner) line(l srcLine) {
	src := s.src
	text := src[l.start:l.end]
	switch {
	case s.comment:
		s.comment = !bytes.Contains(text, []byte("-->"))
		return
	case s.fence.char != 0:
		if s.fence.continues(text) {
			return
		}
		// A line outside the fence's block quote ends the fence; it is
		// read again below as an ordinary line.
		s.fence = fence{}
	case s.indented:
		if isBlank(text) || indentWidth(text) >= 4 {
			return
		}
		s.indented = false
	}

	if isBlank(text) {
		s.endBlock()
		return
	}
	w, rest := indentWidth(text), l.start+indentBytes(text)
	restText := src[rest:l.end]
	if w >= 4 && s.para == paraNone && !s.inList {
		s.endBlock()
		s.indented = true
		return
	}
	if w < 4 {
		if depth, qrest := quotePrefix(text, -1); depth > 0 {
			inner := text[qrest:]
			if iw := indentWidth(inner); iw < 4 {
				if f, ok := openFence(inner[indentBytes(inner):], iw, depth); ok {
					s.endBlock()
					s.fence = f
					return
				}
			}
			s.textLine(l, true)
			return
		}
	}
	if w < 4 || s.inList {
		if f, ok := openFence(restText, w, 0); ok {
			s.endBlock()
			s.leaveList(w)
			s.fence = f
			return
		}
	}
	if w >= 4 {
		s.textLine(l, s.inList)
		return
	}
	if level, ts, te, ok := parseATX(src, rest, l.end); ok {
		s.endBlock()
		s.leaveList(w)
		s.addText(ts, te, l.num)
		s.flushText()
		s.b.Headings = append(s.b.Headings, Heading{
			Level: level, Text: headingText(src[ts:te]), Line: l.num,
			Start: l.start, ContentStart: l.next,
		})
		return
	}
	if s.para == paraPlain {
		if level := setextLevel(restText); level > 0 {
			s.setext(level, l)
			return
		}
		if isTableDelimiter(restText) {
			s.para = paraOther
		}
	}
	switch {
	case isThematicBreak(restText):
		s.endBlock()
		s.leaveList(w)
	case bytes.HasPrefix(restText, []byte("<!--")):
		s.endBlock()
		s.leaveList(w)
		s.comment = !bytes.Contains(restText[4:], []byte("-->"))
	case isListItem(restText) && (s.para != paraPlain || interruptsParagraph(restText)):
		// Each item is its own paragraph; lazy lines after it continue it.
		s.endBlock()
		s.inList = true
		s.textLine(l, true)
	default:
		if s.para == paraNone && w == 0 {
			s.inList = false
		}
		s.textLine(l, s.inList)
	}
}

// textLine adds a line of paragraph text. other says the line is list,
// quote or table text, which can never become a setext heading.
func (s *scanner) textLine(l srcLine, other bool) {
	switch {
	case s.para == paraNone && !other:
		s.para, s.paraStart = paraPlain, l
	case s.para == paraNone || other:
		s.para = paraOther
	}
	s.addText(l.start, l.end, l.num)
}

// setext turns the open plain paragraph into a heading underlined by l.
func (s *scanner) setext(level int, l srcLine) {
	start := s.paraStart
	s.endBlock()
	s.b.Headings = append(s.b.Headings, Heading{
		Level: level, Text: setextText(s.src[start.start:l.start]), Line: start.num,
		Start: start.start, ContentStart: l.next,
	})
}

// endBlock closes the open paragraph: after a blank line or at a block that
// is not paragraph text.
func (s *scanner) endBlock() {
	s.flushText()
	s.para = paraNone
}

// leaveList ends a list at a block that starts in column 0.
func (s *scanner) leaveList(w int) {
	if w == 0 {
		s.inList = false
	}
}

// addText extends the pending text run with [start, end) on line num.
func (s *scanner) addText(start, end, num int) {
	if !s.hasText {
		s.hasText, s.textStart, s.textNum = true, start, num
	}
	s.textEnd = end
}

// flushText scans the pending text run for links and tags.
func (s *scanner) flushText() {
	if !s.hasText {
		return
	}
	s.hasText = false
	scanInline(s.src, s.textStart, s.textEnd, s.textNum, &s.b)
}
