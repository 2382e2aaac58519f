package note

import (
	"bytes"
	"regexp"
	"testing"
)

// titleLine is a one-line title key, the only form the oracle below edits.
var titleLine = regexp.MustCompile(`(?m)^title:[^\n]*\n`)

// TestUpdateMetadata_FixturesTouchOnlyThatKey changes one key of every
// fixture note with well-formed frontmatter and compares the whole file with
// what a plain line edit gives: only that key's line may differ.
func TestUpdateMetadata_FixturesTouchOnlyThatKey(t *testing.T) {
	tested := 0
	for _, fx := range loadFixtures(t) {
		n := Parse(fx.NotePath, fx.Src)
		if n.Frontmatter == nil || n.FrontmatterErr != nil {
			continue
		}
		fm := fx.Src[n.Frontmatter.Start:n.Frontmatter.End]
		eol := "\n"
		if bytes.Contains(fm, []byte("\r\n")) {
			eol = "\r\n"
		}
		t.Run(fx.File+"/add key", func(t *testing.T) {
			// A new key goes at the end of the block, before the closing line.
			closing := bytes.LastIndex(fm[:len(fm)-1], []byte("\n")) + 1
			at := n.Frontmatter.Start + closing
			want := concat(fx.Src[:at], []byte("reviewed: true"+eol), fx.Src[at:])
			got, err := UpdateMetadata(fx.Src, MetaChange{Set: map[string]any{"reviewed": true}})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
		})
		loc := titleLine.FindIndex(bytes.ReplaceAll(fm, []byte("\r\n"), []byte("\n")))
		if loc == nil || eol != "\n" {
			continue
		}
		t.Run(fx.File+"/change title", func(t *testing.T) {
			title := "A new title"
			start, end := n.Frontmatter.Start+loc[0], n.Frontmatter.Start+loc[1]
			want := concat(fx.Src[:start], []byte("title: "+title+"\n"), fx.Src[end:])
			got, err := UpdateMetadata(fx.Src, MetaChange{Title: &title})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got\n%q\nwant\n%q", got, want)
			}
		})
		tested++
	}
	if tested < 15 {
		t.Fatalf("only %d fixtures have well-formed frontmatter; the test needs a richer fixture wiki", tested)
	}
}

func concat(parts ...[]byte) []byte {
	return bytes.Join(parts, nil)
}
