package cairn_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/profiles/cairn"
	"github.com/wikid/wikid/internal/profiles/profiletest"
)

// The seed's cairn_search has
//
//	"path_prefix": { "type": "string", "description": "Scope search to a path prefix e.g. 'entities/person'" }
//
// over a flat key space ("`tags`, `path_prefix`, `modified_since` filter
// the `notes` metadata table"): a prefix is a string prefix, not a folder.
func TestSeed_SearchPathPrefix(t *testing.T) {
	files := map[string]string{
		"fan/fan-10.md":            "# Fan 10\n\nfan note\n",
		"entities/person/ada.md":   "# Ada\n\nfan of engines\n",
		"entities/personal.md":     "# Personal\n\nfan mail\n",
		"entities/people.md":       "# People\n\nfan club\n",
		"other/entities/person.md": "# Elsewhere\n\nfan too\n",
	}
	for i := 1; i <= 9; i++ {
		files[fmt.Sprintf("fan/fan-0%d.md", i)] = fmt.Sprintf("# Fan %d\n\nfan note\n", i)
	}
	c := profiletest.Serve(t, cairn.Profile(), files)
	search := func(args map[string]any) []string {
		t.Helper()
		var out struct {
			Results []struct{ Path string }
			Cursor  string
		}
		args["limit"] = 50
		c.JSON("cairn_search", args, &out)
		if out.Cursor != "" {
			t.Fatalf("cairn_search %v: a second page", args)
		}
		var paths []string
		for _, r := range out.Results {
			paths = append(paths, r.Path)
		}
		slices.Sort(paths)
		return paths
	}
	var fans []string
	for i := 1; i <= 9; i++ {
		fans = append(fans, fmt.Sprintf("fan/fan-0%d", i))
	}
	for _, tt := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"path_prefix": "fan/fan-0"}, fans},
		{map[string]any{"path_prefix": "fan/fan-0", "query": "fan"}, fans},
		{map[string]any{"path_prefix": "entities/person"}, []string{"entities/person/ada", "entities/personal"}},
		{map[string]any{"path_prefix": "entities/person/"}, []string{"entities/person/ada"}},
		{map[string]any{"path_prefix": "entities/", "query": "club OR mail"}, []string{"entities/people", "entities/personal"}},
		{map[string]any{"path_prefix": "nothing/"}, nil},
	} {
		if got := search(tt.args); !slices.Equal(got, tt.want) {
			t.Errorf("cairn_search %v = %v, want %v", tt.args, got, tt.want)
		}
	}
}
