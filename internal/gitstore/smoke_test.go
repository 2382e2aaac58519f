package gitstore

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "a\n", "x/b.md": "b\n"})
	s := openStore(t, dir)
	head := rev(t, dir, "HEAD")
	id := mustCommit(t, s, request(head, "edit: a\n\nbody\n", map[string]string{"a.md": "A\n", "x/y/c.md": "c\n", "x/b.md": ""}))
	t.Log(id)
	checkCheckout(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": "A\n", "x/y/c.md": "c\n", "x/b.md": ""})
}
