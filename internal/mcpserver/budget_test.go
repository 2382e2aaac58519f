package mcpserver

import (
	"encoding/json"
	"testing"

	"github.com/wikid/wikid/internal/tools"
)

// toolsListSizes measures what tools/list costs a client that loads every
// definition into each request: the descriptions and input schemas, the
// output schemas, and the whole list as JSON; with semantic, as a wiki with
// semantic search lists them.
func toolsListSizes(tb testing.TB, semantic bool) (descAndInput, output, whole int) {
	var list []any
	for _, t := range tools.Profile().Tools() {
		if t.NeedsSemantic && !semantic {
			continue
		}
		if semantic && t.WithSemantic != nil {
			t = t.WithSemantic()
		}
		d := definition(t, false)
		descAndInput += len(d.Description) + len(d.RawInputSchema)
		output += len(d.RawOutputSchema)
		list = append(list, d)
	}
	b, err := json.Marshal(map[string]any{"tools": list})
	if err != nil {
		tb.Fatal(err)
	}
	return descAndInput, output, len(b)
}

// BenchmarkToolsList reports the size of the default profile's tools/list.
func BenchmarkToolsList(b *testing.B) {
	var d, o, w, sd, sw int
	for b.Loop() {
		d, o, w = toolsListSizes(b, false)
		sd, _, sw = toolsListSizes(b, true)
	}
	b.ReportMetric(float64(d), "desc+input-B")
	b.ReportMetric(float64(o), "output-B")
	b.ReportMetric(float64(w), "tools/list-B")
	b.ReportMetric(float64(sd), "semantic-desc+input-B")
	b.ReportMetric(float64(sw), "semantic-tools/list-B")
}

// descAndInputBudget is what the descriptions and input schemas of every
// tool may cost a client that loads them into each request: 12,000 bytes,
// about 3,000 tokens.
const descAndInputBudget = 12000

// TestToolsListBudget fails when the descriptions and input schemas grow
// past descAndInputBudget.
func TestToolsListBudget(t *testing.T) {
	d, _, whole := toolsListSizes(t, false)
	if d > descAndInputBudget {
		t.Errorf("descriptions and input schemas cost %d bytes, over the budget of %d: say what a tool does and "+
			"when to use it in fewer words, and explain what tools share once, in the server's instructions", d, descAndInputBudget)
	}
	if whole > toolsListBudget {
		t.Errorf("tools/list is %d bytes, over the budget of %d: publish output schemas as their shape, share what "+
			"repeats, and declare for each tool only the fields it returns", whole, toolsListBudget)
	}
}

// toolsListBudget bounds the whole tools/list of the default profile:
// 40,000 bytes, 600 for the branch every mutating tool's result names, 50
// for whether a search's scan was complete, and 150 for whether
// gather_context's was.
const toolsListBudget = 40_800

// What a wiki that turns semantic search on may list: the default budgets
// and what it adds, related_notes (about 300 bytes of description and
// input, and the search result's output schema) and search_notes' mode.
// A wiki without it pays none of this.
const (
	semanticDescAndInputBudget = descAndInputBudget + 500
	semanticToolsListBudget    = toolsListBudget + 1500
)

// TestToolsListBudget_Semantic holds the tools a wiki with semantic search
// lists to their budgets: the default set, related_notes, and the
// variants of search_notes, resolve_notes and wiki_status that speak of it.
func TestToolsListBudget_Semantic(t *testing.T) {
	d, _, whole := toolsListSizes(t, true)
	if d > semanticDescAndInputBudget || whole > semanticToolsListBudget {
		t.Errorf("with semantic search: descriptions and input schemas %d bytes (budget %d), tools/list %d bytes (budget %d)",
			d, semanticDescAndInputBudget, whole, semanticToolsListBudget)
	}
}
