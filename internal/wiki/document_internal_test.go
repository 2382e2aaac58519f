package wiki

import (
	"slices"
	"testing"

	"github.com/wikid/wikid/internal/note"
)

func TestLinkTargets(t *testing.T) {
	n := note.Parse("notes/n", []byte("# N\n\n[a](a.md) ![](img/a.png) [spec](../docs/spec.pdf) [[B]] ![[c.png]] ![[D]]\n"))
	want := []string{"b", "d", "notes/a"}
	if got := linkTargets(n); !slices.Equal(got, want) {
		t.Errorf("linkTargets = %q, want %q: links to files are not note paths", got, want)
	}
}
