package note

import "time"

// Frontmatter is a note's leading YAML block between "---" lines.
type Frontmatter struct {
	// Start and End are the byte range of the whole block, delimiters
	// included; End is where the body starts.
	Start, End int
	// Properties holds every key, decoded to Go values.
	Properties map[string]any
	// Keys lists the top-level keys in document order.
	Keys              []string
	Title             string
	Tags              []string
	Aliases           []string
	Created, Modified time.Time
}

// parseFrontmatter finds and decodes the frontmatter block. It returns
// (nil, nil) when there is none. TODO: implement.
func parseFrontmatter(src []byte) (*Frontmatter, error) {
	return nil, nil
}
