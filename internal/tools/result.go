package tools

import (
	"sync"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// ResultJSON returns a result of the wiki as the named tool returns it in
// its structured content, strings worded with w: the command line prints
// the same JSON. A tool of no such name encodes by the rules alone.
func ResultJSON(name string, v any, w wiki.Words) ([]byte, error) {
	switch r := v.(type) {
	case *wiki.ReadResult:
		v = wireRead(r)
	case *wiki.Result:
		v = noteOutput("", r)
	}
	return tool.EncodeStructured(v, outputSchemas()[name], w)
}

// outputSchemas holds every tool's output schema by name: of its variant
// for semantic search where it has one, which adds optional fields.
var outputSchemas = sync.OnceValue(func() map[string]*tool.Schema {
	m := make(map[string]*tool.Schema)
	for _, t := range allTools() {
		if t.WithSemantic != nil {
			t = t.WithSemantic()
		}
		m[t.Name] = t.Output
	}
	return m
})
