package gitformat

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// HashObject returns the id git gives content stored as an object of type
// t.
func HashObject(t plumbing.ObjectType, content []byte) plumbing.Hash {
	h := sha1.New()
	h.Write(t.Bytes())
	h.Write([]byte{' '})
	h.Write(strconv.AppendInt(nil, int64(len(content)), 10))
	h.Write([]byte{0})
	h.Write(content)
	var id plumbing.Hash
	h.Sum(id[:0])
	return id
}

// ParseHex parses a full lowercase or uppercase hex object id, and reports
// whether s is one.
func ParseHex(s string) (plumbing.Hash, bool) {
	var id plumbing.Hash
	if len(s) != 40 {
		return id, false
	}
	for i := 0; i < 40; i += 2 {
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return id, false
		}
		id[i/2] = hi<<4 | lo
	}
	return id, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// TagTarget returns the id of the object an annotated tag object names,
// from its first header. It returns an error if that is not an "object"
// header with a full hex id.
func TagTarget(b []byte) (plumbing.Hash, error) {
	obj, _, _ := bytes.Cut(b, []byte{'\n'})
	target, ok := bytes.CutPrefix(obj, []byte("object "))
	if !ok {
		return plumbing.ZeroHash, errors.New("no object header")
	}
	id, ok := ParseHex(string(target))
	if !ok {
		return plumbing.ZeroHash, fmt.Errorf("bad object %q", target)
	}
	return id, nil
}
