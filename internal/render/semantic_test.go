package render_test

import (
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

func TestSemanticNotes_Coverage(t *testing.T) {
	hit := []wiki.SearchHit{{Path: "p", Title: "Plan"}}
	tests := []struct {
		name string
		res  *wiki.SearchResult
		want string
	}{
		{"ranked by word vectors meanwhile", &wiki.SearchResult{Mode: wiki.SearchSemantic, Total: 1, Results: hit, Embedded: 120, Unembedded: 191, Static: true},
			"Note: the model has embedded 120 of 311 notes (38%); the other 191 are ranked by word vectors until it has; wiki_status shows the progress."},
		{"left out", &wiki.SearchResult{Mode: wiki.SearchSemantic, Total: 1, Results: hit, Embedded: 120, Unembedded: 191},
			"Note: 191 notes not embedded yet, so not ranked by meaning"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := toolWords.Say(render.Search("plan", tc.res)); !strings.Contains(got, tc.want) {
				t.Errorf("got\n%q\nwant a line\n%q", got, tc.want)
			}
		})
	}
}

func TestSemanticStatus_Rate(t *testing.T) {
	st := wiki.SemanticStatus{Enabled: true, SemanticState: wiki.SemanticState{Model: "m", Provider: "built in", Notes: 311,
		Unembedded: 191, Chunks: 900, Pending: 600, Rate: 12.46, ETASeconds: 48, Static: "words"}}
	want := "Semantic search: m (built in), 311 notes, 191 not embedded yet (600 chunks waiting, 12 chunks a second, about 48s to go); until then they are ranked by words"
	if got := render.SemanticStatus(st); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
