package note

// Heading is an ATX or setext heading outside fenced code.
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
	// Start is the offset of the heading's first byte; ContentStart the
	// offset just after the heading (after a setext underline); End the end
	// of its section: the next heading of the same or a higher level, or EOF.
	Start        int `json:"start"`
	ContentStart int `json:"content_start"`
	End          int `json:"end"`
	// Parent is the index in Note.Headings of the enclosing heading, or -1.
	Parent int `json:"parent"`
}

// LinkKind distinguishes the forms of a link.
type LinkKind string

// Link kinds.
const (
	LinkWiki     LinkKind = "wiki"     // [[Target]], [[Target|label]], [[Target#Heading]], [[#Heading]]
	LinkEmbed    LinkKind = "embed"    // ![[Target]]
	LinkMarkdown LinkKind = "markdown" // [label](relative/path.md)
)

// Link is a link outside code, with where it sits.
type Link struct {
	Kind LinkKind `json:"kind"`
	// Target is the target as written, without heading or label; empty for
	// [[#Heading]]. For markdown links it is the URL-decoded relative path.
	Target  string `json:"target"`
	Heading string `json:"heading,omitempty"`
	Label   string `json:"label,omitempty"`
	Line    int    `json:"line"`
	// Start and End are the byte range of the whole link; TargetStart and
	// TargetEnd the range of the target text, for rewriting it on a move.
	Start       int `json:"start"`
	End         int `json:"end"`
	TargetStart int `json:"target_start"`
	TargetEnd   int `json:"target_end"`
}

// body is what scanBody finds in a note's body.
type body struct {
	Headings []Heading
	Links    []Link
	// Tags are inline #tags outside code, as written, without '#'.
	Tags []string
}

// scanBody scans src from offset start, which is on line startLine. TODO: implement.
func scanBody(src []byte, start, startLine int) body {
	return body{}
}
