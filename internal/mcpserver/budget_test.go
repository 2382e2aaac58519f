package mcpserver

import (
	"encoding/json"
	"testing"
)

// toolsListSizes measures what tools/list costs a client that loads every
// definition into each request: the descriptions and input schemas, the
// output schemas, and the whole list as JSON.
func toolsListSizes(tb testing.TB) (descAndInput, output, whole int) {
	var tools []any
	for _, t := range allTools() {
		d := t.definition(false)
		descAndInput += len(d.Description) + len(d.RawInputSchema)
		output += len(d.RawOutputSchema)
		tools = append(tools, d)
	}
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		tb.Fatal(err)
	}
	return descAndInput, output, len(b)
}

// BenchmarkToolsList reports the size of the default profile's tools/list.
func BenchmarkToolsList(b *testing.B) {
	var d, o, w int
	for b.Loop() {
		d, o, w = toolsListSizes(b)
	}
	b.ReportMetric(float64(d), "desc+input-B")
	b.ReportMetric(float64(o), "output-B")
	b.ReportMetric(float64(w), "tools/list-B")
}

// descAndInputBudget is what the descriptions and input schemas of every
// tool may cost a client that loads them into each request: 12,000 bytes,
// about 3,000 tokens.
const descAndInputBudget = 12000

// TestToolsListBudget fails when the descriptions and input schemas grow
// past descAndInputBudget.
func TestToolsListBudget(t *testing.T) {
	d, _, whole := toolsListSizes(t)
	if d > descAndInputBudget {
		t.Errorf("descriptions and input schemas cost %d bytes, over the budget of %d: say what a tool does and "+
			"when to use it in fewer words, and explain what tools share once, in the server's instructions", d, descAndInputBudget)
	}
	if whole > toolsListBudget {
		t.Errorf("tools/list is %d bytes, over the budget of %d: publish output schemas as their shape, share what "+
			"repeats, and declare for each tool only the fields it returns", whole, toolsListBudget)
	}
}

// toolsListBudget bounds the whole tools/list of the default profile.
const toolsListBudget = 40_000
