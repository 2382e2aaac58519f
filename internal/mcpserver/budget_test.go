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
