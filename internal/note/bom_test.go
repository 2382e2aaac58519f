package note

import (
	"bytes"
	"slices"
	"testing"
)

// TestBOM checks the one rule for a byte order mark: it stays at the top of
// the file and the note, frontmatter first, starts after it, for reading,
// metadata changes and edits alike.
func TestBOM(t *testing.T) {
	const bom = "\ufeff"
	tests := []struct {
		name      string
		src       string
		title     string
		tags      []string
		headings  []string
		bodyStart int
		// after update_metadata adding tag x, and after prepending "First"
		metadata, prepend string
	}{
		{
			name: "frontmatter", src: bom + "---\ntitle: Bom\ntags: [a]\n---\n# Head\nbody\n",
			title: "Bom", tags: []string{"a"}, headings: []string{"Head"}, bodyStart: len(bom + "---\ntitle: Bom\ntags: [a]\n---\n"),
			metadata: bom + "---\ntitle: Bom\ntags: [a, x]\n---\n# Head\nbody\n",
			prepend:  bom + "---\ntitle: Bom\ntags: [a]\n---\nFirst\n# Head\nbody\n",
		},
		{
			name: "frontmatter, CRLF", src: bom + "---\r\ntags: a\r\n---\r\n# Head\r\n",
			title: "Head", tags: []string{"a"}, headings: []string{"Head"}, bodyStart: len(bom + "---\r\ntags: a\r\n---\r\n"),
			metadata: bom + "---\r\ntags: a x\r\n---\r\n# Head\r\n",
			prepend:  bom + "---\r\ntags: a\r\n---\r\nFirst\r\n# Head\r\n",
		},
		{
			name: "no frontmatter", src: bom + "# Heading\n\nText #t.\n",
			title: "Heading", tags: []string{"t"}, headings: []string{"Heading"}, bodyStart: len(bom),
			metadata: bom + "---\ntags:\n  - x\n---\n# Heading\n\nText #t.\n",
			prepend:  bom + "First\n# Heading\n\nText #t.\n",
		},
		{
			name: "only a mark", src: bom,
			title: "n", bodyStart: len(bom),
			metadata: bom + "---\ntags:\n  - x\n---\n",
			prepend:  bom + "First\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Parse("n", []byte(tt.src))
			var tags, headings []string
			for _, tag := range n.Tags {
				tags = append(tags, tag.Name)
			}
			for _, h := range n.Headings {
				headings = append(headings, h.Text)
			}
			if n.Title != tt.title || !slices.Equal(tags, tt.tags) || !slices.Equal(headings, tt.headings) || n.BodyStart != tt.bodyStart {
				t.Errorf("Parse: title %q, tags %q, headings %q, body at %d; want %q, %q, %q, %d",
					n.Title, tags, headings, n.BodyStart, tt.title, tt.tags, tt.headings, tt.bodyStart)
			}
			got, err := UpdateMetadata([]byte(tt.src), MetaChange{AddTags: []string{"x"}})
			if err != nil || string(got) != tt.metadata {
				t.Errorf("UpdateMetadata = %q, %v; want %q", got, err, tt.metadata)
			}
			if m := Parse("n", got); !m.HasTag("x") || m.Title != tt.title {
				t.Errorf("after UpdateMetadata: title %q, tags %v", m.Title, m.Tags)
			}
			got, err = ApplyEdits([]byte(tt.src), []Edit{{Op: OpPrepend, Content: "First"}})
			if err != nil || string(got) != tt.prepend {
				t.Errorf("prepend = %q, %v; want %q", got, err, tt.prepend)
			}
			if !bytes.HasPrefix(got, fmBOM) {
				t.Errorf("prepend moved the byte order mark: %q", got)
			}
		})
	}
}
