package gitformat

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Git file modes, as stored in trees and in the index.
const (
	ModeTree uint32 = 0o040000
	ModeFile uint32 = 0o100644
	ModeExec uint32 = 0o100755

	modeTypeMask = 0o170000
)

// EmptyTree is the id of the tree with no entries, which git treats as
// existing whether or not it is stored.
var EmptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// IsTreeMode reports whether m is a tree's mode.
func IsTreeMode(m uint32) bool { return m&modeTypeMask == ModeTree }

// IsRegularMode reports whether m is a regular file's mode, executable or
// not (not a symlink or a submodule).
func IsRegularMode(m uint32) bool { return m&modeTypeMask == 0o100000 }

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Name string
	Mode uint32
	ID   plumbing.Hash
}

// ParseTree decodes a tree object into its entries, in the order stored.
// It returns an error for a malformed entry. The names share one string
// with the tree: a large folder's tree is two allocations, not one a name.
func ParseTree(b []byte) ([]TreeEntry, error) {
	if len(b) == 0 {
		return nil, nil
	}
	raw := string(b)
	// An entry takes at least 23 bytes ("0 a\0" and an id); most names
	// are longer, so this rarely grows and never wastes much.
	entries := make([]TreeEntry, 0, len(raw)/36+1)
	for at := 0; at < len(raw); {
		rest := raw[at:]
		sp := strings.IndexByte(rest, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("parse tree: bad mode")
		}
		mode, ok := parseMode(rest[:sp])
		if !ok {
			return nil, fmt.Errorf("parse tree: bad mode %q", rest[:sp])
		}
		rest = rest[sp+1:]
		nul := strings.IndexByte(rest, 0)
		if nul <= 0 || len(rest) < nul+1+20 {
			return nil, fmt.Errorf("parse tree: truncated entry")
		}
		e := TreeEntry{Name: rest[:nul], Mode: mode}
		copy(e.ID[:], rest[nul+1:nul+21])
		entries = append(entries, e)
		at += sp + 1 + nul + 21
	}
	return entries, nil
}

// NextEntry decodes the first entry of b, a tree object or what is left of
// one, without copying: name and id point into b. n is the entry's length.
// It returns an error for a malformed entry.
func NextEntry(b []byte) (name []byte, mode uint32, id []byte, n int, err error) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return nil, 0, nil, 0, fmt.Errorf("parse tree: bad mode")
	}
	mode, ok := parseMode(string(b[:sp]))
	if !ok {
		return nil, 0, nil, 0, fmt.Errorf("parse tree: bad mode %q", b[:sp])
	}
	nul := bytes.IndexByte(b[sp+1:], 0)
	if nul <= 0 || len(b) < sp+1+nul+1+20 {
		return nil, 0, nil, 0, fmt.Errorf("parse tree: truncated entry")
	}
	at := sp + 1 + nul
	return b[sp+1 : at], mode, b[at+1 : at+21], at + 21, nil
}

// parseMode reads an entry's mode: octal digits that fit in 32 bits.
func parseMode(s string) (uint32, bool) {
	var m uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return 0, false
		}
		if m = m<<3 | uint64(c-'0'); m > math.MaxUint32 {
			return 0, false
		}
	}
	return uint32(m), len(s) > 0
}

// EncodeTree encodes entries, which must be in git's order, as a tree
// object.
func EncodeTree(entries []TreeEntry) []byte {
	n := 0
	for _, e := range entries {
		n += len(e.Name) + 28
	}
	b := make([]byte, 0, n)
	for _, e := range entries {
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.ID[:]...)
	}
	return b
}

// CompareEntries orders tree entries the way git does: by name, a tree
// sorting as if its name ended in '/'.
func CompareEntries(aName string, aMode uint32, bName string, bMode uint32) int {
	n := min(len(aName), len(bName))
	if c := compareStrings(aName[:n], bName[:n]); c != 0 {
		return c
	}
	next := func(name string, mode uint32) byte {
		if len(name) > n {
			return name[n]
		}
		if IsTreeMode(mode) {
			return '/'
		}
		return 0
	}
	ca, cb := next(aName, aMode), next(bName, bMode)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Find returns the entry called name, a file or a tree, whichever exists,
// of entries in git's order.
func Find(entries []TreeEntry, name string) (TreeEntry, bool) {
	for _, mode := range [...]uint32{ModeFile, ModeTree} {
		i := sort.Search(len(entries), func(i int) bool {
			e := entries[i]
			return CompareEntries(e.Name, e.Mode, name, mode) >= 0
		})
		if i < len(entries) && entries[i].Name == name {
			return entries[i], true
		}
	}
	return TreeEntry{}, false
}

// Search finds the entry called name of the given kind (tree or not) in
// entries, which are in git's order; if there is none it returns where one
// would be inserted.
func Search(entries []TreeEntry, name string, mode uint32) (int, bool) {
	i := sort.Search(len(entries), func(i int) bool {
		return CompareEntries(entries[i].Name, entries[i].Mode, name, mode) >= 0
	})
	ok := i < len(entries) && entries[i].Name == name && IsTreeMode(entries[i].Mode) == IsTreeMode(mode)
	return i, ok
}
