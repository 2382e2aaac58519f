package note

import (
	"github.com/wikid/wikid/internal/wikierr"
	"slices"
	"strings"
	"testing"
)

func FuzzSection(f *testing.F) {
	for _, s := range [][2]string{
		{"# A\n## B\n### C\n", "B"},
		{"# A\n## B\n# D\n## B\n", "D/B"},
		{"# A\n## B\n# A\n## B\n", "A/B"},
		{"Title\n===\n## a/b\n", "A/B"},
		{"# A\n", "## "},
		{"```\n# A\n```\n", "A"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, src, query string) {
		n := &Note{Raw: []byte(src), Headings: scanBody([]byte(src), 0, 1).Headings}
		h, err := n.Section(query)
		q := normHeading(query)
		plain := slices.IndexFunc(n.Headings, func(h Heading) bool { return strings.EqualFold(normHeading(h.Text), q) })
		if err != nil {
			e, _ := err.(*wikierr.Error)
			switch wikierr.CodeOf(err) {
			case wikierr.CodeInvalidParams:
				if q != "" {
					t.Fatalf("Section(%q): %v for a non-empty query", query, err)
				}
			case wikierr.CodeNotFound:
				if plain >= 0 || len(e.Details["headings"].([]string)) != len(n.Headings) {
					t.Fatalf("Section(%q): %v, but heading %d matches or details are wrong", query, err, plain)
				}
			case wikierr.CodeAmbiguous:
				if plain >= 0 || !strings.Contains(q, "/") || len(e.Details["lines"].([]int)) < 2 {
					t.Fatalf("Section(%q): %v, but heading %d matches or it is no path", query, err, plain)
				}
			default:
				t.Fatalf("Section(%q): unexpected error %v", query, err)
			}
			return
		}
		i := slices.Index(n.Headings, h)
		if i < 0 {
			t.Fatalf("Section(%q) = %+v, not one of the headings", query, h)
		}
		if plain >= 0 && i != plain {
			t.Fatalf("Section(%q) = heading %d, want the first plain match %d", query, i, plain)
		}
		if plain < 0 {
			segs := strings.Split(q, "/")
			last := ""
			for _, s := range segs {
				if s = normHeading(s); s != "" {
					last = s
				}
			}
			if !strings.EqualFold(normHeading(h.Text), last) {
				t.Fatalf("Section(%q) = %q, which is not the last segment %q", query, h.Text, last)
			}
		}
	})
}
