package wiki

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/grammar"
)

func TestScanLiterals(t *testing.T) {
	tests := []struct {
		query string
		tags  []string
		want  string
	}{
		{"plugins", nil, "[[plug]]"},
		{"happiness sync", nil, "[[happ] [sync]]"},
		{`"project plan"`, nil, "[[proj plan]]"},
		{"plug*", nil, "[[plug]]"},
		{"title:Meeting -tag:finance", nil, "[[meet]]"},
		{"status:active OR folder:Journal", nil, "[[stat acti] [jour]]"},
		{"modified:>=2024-01-01 linkedfrom:home links:roadmap", nil, "[]"},
		{"NOT (budget OR plan)", nil, "[]"},
		{"Notizen über Häuser", nil, "[[noti] [über] [häuser]]"},
		{"", []string{"project/alpha"}, "[[proj alph]]"},
	}
	for _, tt := range tests {
		req := SearchRequest{Tags: tt.tags}
		if tt.query != "" {
			q, err := grammar.Parse(tt.query, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			req.Query = q
		}
		if got := fmt.Sprint(scanLiterals(req)); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.query, got, tt.want)
		}
	}
}

func TestPick_HeaviestFirst(t *testing.T) {
	files := []string{"a", "b", "c", "d"}
	got := pick(files, []float64{1, 3, 0, 3}, 3, false)
	if want := []string{"b", "d", "a"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := pick(files, []float64{0, 0, 0, 0}, 10, false); !slices.Equal(got, files) {
		t.Errorf("equal weights: got %v, want path order", got)
	}
	if got := pick(files, []float64{0, 2, 0, 1}, 10, true); !slices.Equal(got, []string{"b", "d"}) {
		t.Errorf("held only: got %v, want [b d]", got)
	}
}

// TestNoteList_KeptWhileAsked checks that the note list is kept only when
// asked (while the index is built) and forgotten once dropped, its length
// remembered.
func TestNoteList_KeptWhileAsked(t *testing.T) {
	var c noteList
	c.commit, c.n, c.files = "c1", 2, []string{"a.md", "b.md"}
	c.drop()
	if c.files != nil || c.n != 2 || c.commit != "c1" {
		t.Errorf("after drop: files %v, %d notes of %q", c.files, c.n, c.commit)
	}
}
