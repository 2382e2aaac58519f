package note

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wikierr"
)

func TestNote_Section(t *testing.T) {
	const doc = "# Project\nintro\n## Tasks\n- a\n## Notes\n### Tasks\n- nested\n## Meeting/Notes\nx\n" +
		"# Other\n## Status\n### Done\nCafé\n----\n"
	const dup = "# A\n## X\n### Y\n# B\n## X\n### Y\n# A\n## X\n### Y\n"
	tests := []struct {
		name, src, query string
		wantLine         int          // line of the heading found
		wantCode         wikierr.Code // or the error's code
		wantMsg          string
	}{
		{"first match at any level", doc, "Tasks", 3, "", ""},
		{"case-insensitive", doc, "tASKS", 3, "", ""},
		{"trimmed, hashes ignored", doc, "  ## Tasks  ", 3, "", ""},
		{"unicode case", doc, "CAFÉ", 13, "", ""},
		{"setext", doc, "Café", 13, "", ""},
		{"path to parent", doc, "Notes/Tasks", 6, "", ""},
		{"path from root", doc, "Project/Notes/Tasks", 6, "", ""},
		{"path picks the direct child", doc, "Project/Tasks", 3, "", ""},
		{"path segments trimmed", doc, " Other / ## Status /Done", 12, "", ""},
		{"path need not start at a root", doc, "Status/Done", 12, "", ""},
		{"plain text with slash wins", doc, "Meeting/Notes", 8, "", ""},
		{"path levels need not be adjacent", "# A\n### C\n", "A/C", 2, "", ""},
		{"path skipping a level is not found", doc, "Other/Done", 0, wikierr.CodeNotFound,
			`section "Other/Done" not found; headings: "Project", "Tasks", "Notes", "Tasks", "Meeting/Notes", "Other", "Status", "Done", "Café"`},
		{"path ambiguous", dup, "X/Y", 0, wikierr.CodeAmbiguous, `section "X/Y" matches 3 headings, on lines 3, 6, 9`},
		{"longer path still ambiguous", dup, "A/X/Y", 0, wikierr.CodeAmbiguous, `section "A/X/Y" matches 2 headings, on lines 3, 9`},
		{"longer path unique", dup, "B/X/Y", 6, "", ""},
		{"duplicate plain text takes the first", dup, "Y", 3, "", ""},
		{"not found", doc, "Missing", 0, wikierr.CodeNotFound,
			`section "Missing" not found; headings: "Project", "Tasks", "Notes", "Tasks", "Meeting/Notes", "Other", "Status", "Done", "Café"`},
		{"no headings", "text\n", "A", 0, wikierr.CodeNotFound, `section "A" not found; the note has no headings`},
		{"heading in code", "```\n# A\n```\n", "A", 0, wikierr.CodeNotFound, `section "A" not found; the note has no headings`},
		{"empty", doc, "  ", 0, wikierr.CodeInvalidParams, "section is empty"},
		{"only hashes", doc, "##", 0, wikierr.CodeInvalidParams, "section is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Parse("n", []byte(tt.src))
			h, err := n.Section(tt.query)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("Section(%q) error: %v", tt.query, err)
				}
				if h.Line != tt.wantLine {
					t.Fatalf("Section(%q) = %q on line %d, want line %d", tt.query, h.Text, h.Line, tt.wantLine)
				}
				if !slices.Contains(n.Headings, h) {
					t.Fatalf("Section(%q) = %+v, not one of the note's headings", tt.query, h)
				}
				return
			}
			var e *wikierr.Error
			if !errors.As(err, &e) || e.Code != tt.wantCode || e.Message != tt.wantMsg {
				t.Fatalf("Section(%q) error = %v, want %s: %s", tt.query, err, tt.wantCode, tt.wantMsg)
			}
			if e.Hint == "" {
				t.Errorf("Section(%q) error has no hint", tt.query)
			}
		})
	}
}

func TestNote_Section_Details(t *testing.T) {
	n := Parse("n", []byte("# A\n## B\n# A\n## B\n"))
	_, err := n.Section("Missing")
	var e *wikierr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *wikierr.Error", err)
	}
	if got, want := e.Details["headings"], []string{"A", "B", "A", "B"}; !slices.Equal(got.([]string), want) {
		t.Errorf("Details[headings] = %v, want %v", got, want)
	}
	if !errors.Is(err, wikierr.ErrNotFound) {
		t.Errorf("errors.Is(%v, wikierr.ErrNotFound) = false", err)
	}

	_, err = n.Section("A/B")
	if !errors.As(err, &e) || e.Code != wikierr.CodeAmbiguous {
		t.Fatalf("Section(A/B) error = %v, want AMBIGUOUS", err)
	}
	if got, want := e.Details["lines"], []int{2, 4}; !slices.Equal(got.([]int), want) {
		t.Errorf("Details[lines] = %v, want %v", got, want)
	}

	// The message names 30 headings at most; the details hold them all.
	var src []byte
	for i := range 40 {
		src = fmt.Appendf(src, "## H%c\n", 'a'+i%26)
	}
	n = Parse("n", src)
	_, err = n.Section("Missing")
	if !errors.As(err, &e) || len(e.Details["headings"].([]string)) != 40 {
		t.Fatalf("error %v: want 40 headings in details", err)
	}
	if want := `"Hd" and 10 more`; !strings.Contains(e.Message, want) {
		t.Errorf("message %q does not end the list with %q", e.Message, want)
	}
}
