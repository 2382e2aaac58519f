package semantic

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/note"
)

func TestChunks(t *testing.T) {
	long := strings.Repeat("A line of a long section, which goes on for a while.\n", 80) // about 4 KB
	for _, c := range []struct {
		name    string
		content string
		want    []Chunk
	}{
		{"empty", "", nil},
		{"frontmatter only", "---\ntags: [a]\n---\n", nil},
		{"title from frontmatter", "---\ntitle: Plan\n---\nShip it.\n", []Chunk{{Text: "Plan\nShip it.", Start: 4, End: 4}}},
		{"sections merge", "# Plan\n\nShip it.\n\n## Risks\n\nNone.\n", []Chunk{{Text: "Plan\nShip it.\nPlan > Risks\nNone.", Start: 3, End: 7}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Chunks(note.Parse("a/b", []byte(c.content)))
			if len(got) != len(c.want) {
				t.Fatalf("%d chunks %+v, want %d", len(got), got, len(c.want))
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("chunk %d: %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}

	t.Run("long section is cut at lines", func(t *testing.T) {
		content := "# Intro\n\nShort.\n\n## Long\n\n" + long + "\n## After\n\nEnd.\n"
		got := Chunks(note.Parse("a", []byte(content)))
		if len(got) < 3 {
			t.Fatalf("%d chunks", len(got))
		}
		lines := strings.Split(content, "\n")
		prevEnd := 0
		for _, ch := range got {
			if len(ch.Text) > maxChunk {
				t.Errorf("chunk of %d bytes", len(ch.Text))
			}
			if ch.Start <= prevEnd || ch.End < ch.Start {
				t.Errorf("lines %d-%d after %d", ch.Start, ch.End, prevEnd)
			}
			prevEnd = ch.End
			// The chunk's last line is in its text.
			if last := strings.TrimSpace(lines[ch.End-1]); last != "" && !strings.Contains(ch.Text, last) {
				t.Errorf("chunk %d-%d lacks its last line %q", ch.Start, ch.End, last)
			}
		}
		if !strings.Contains(got[1].Text, "Intro > Long\n") {
			t.Errorf("a piece of a long section lacks its heading: %.40q", got[1].Text)
		}
	})

	t.Run("a move changes no chunk", func(t *testing.T) {
		content := "# Rome\n\nTrain to the airport.\n"
		a, b := Chunks(note.Parse("travel/rome", []byte(content))), Chunks(note.Parse("trips/italy/rome", []byte(content)))
		if len(a) != 1 || a[0] != b[0] {
			t.Errorf("%+v != %+v", a, b)
		}
	})
}

func FuzzChunks(f *testing.F) {
	f.Add("---\ntitle: x\n---\n# a\n\nb\n## c\n" + strings.Repeat("d ", 2000))
	f.Add("\xff\xfe# \n\n```\n# not a heading\n```\n")
	f.Fuzz(func(t *testing.T, content string) {
		n := note.Parse("f", []byte(content))
		lines := strings.Count(content, "\n") + 1
		for _, c := range Chunks(n) {
			if c.Text == "" || len(c.Text) > maxChunk+len(n.Title)+1 || c.Start < 1 || c.End < c.Start || c.End > lines {
				t.Fatalf("chunk %+v of a %d-line note", c, lines)
			}
		}
	})
}
