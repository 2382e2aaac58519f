package graph

import (
	"fmt"
	"testing"
)

// TestGraph_Named finds notes by their whole path, title or alias,
// ignoring case and Unicode normalization, each once, the path first.
func TestGraph_Named(t *testing.T) {
	g := build(t, []File{
		fileOf("projects/Plan.md", []byte("# Launch plan\n")),
		fileOf("plan.md", []byte("---\naliases: [roadmap]\n---\n# Plan\n")),
		fileOf("notes/roadmap.md", []byte("# Roadmap\n")),
		fileOf("cafe\u0301.md", []byte("# Cafe\u0301 notes\n")),
	})
	tests := []struct{ name, want string }{
		{"plan", "[{plan Plan 1 path}]"},
		{"PROJECTS/plan.md", "[{projects/Plan Launch plan 1 path}]"},
		{"launch plan", "[{projects/Plan Launch plan 1 title}]"},
		{"Roadmap", "[{notes/roadmap Roadmap 1 title} {plan Plan 1 alias}]"},
		{"caf\u00e9 NOTES", "[{cafe\u0301 Cafe\u0301 notes 1 title}]"},
		{"nobody", "[]"},
		{" ", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(g.Named(tt.name)); got != tt.want {
			t.Errorf("Named(%q) = %s, want %s", tt.name, got, tt.want)
		}
	}
}
