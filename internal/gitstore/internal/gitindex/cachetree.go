package gitindex

import (
	"bytes"
	"errors"
	"strconv"
)

// invalidateCacheTree rewrites the index's TREE extension (the cache tree)
// so that every folder on a touched path is marked invalid (entry count -1,
// no tree id), as git does when it changes an entry; the rest is kept, so
// git still reuses the untouched subtrees. paths are the touched files,
// split into names.
//
// The extension is a pre-order list of nodes:
// "<name>\0<entry count> <subtree count>\n" followed by the tree id when the
// entry count is not negative.
func invalidateCacheTree(data []byte, paths [][]string) ([]byte, error) {
	out := make([]byte, 0, len(data))
	rest, out, err := invalidateNode(data, out, paths, 0)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, errors.New("cache tree: trailing data")
	}
	return out, nil
}

// invalidateNode copies one node and its subtrees from data to out and
// returns the data after them. candidates are the paths that go through the
// node's parent; depth is the node's depth (0 for the root).
func invalidateNode(data, out []byte, candidates [][]string, depth int) ([]byte, []byte, error) {
	nul := bytes.IndexByte(data, 0)
	if nul < 0 {
		return nil, nil, errors.New("cache tree: truncated name")
	}
	name := string(data[:nul])
	nl := bytes.IndexByte(data[nul+1:], '\n')
	if nl < 0 {
		return nil, nil, errors.New("cache tree: truncated counts")
	}
	counts := data[nul+1 : nul+1+nl]
	entryCount, subtreeCount, ok := bytes.Cut(counts, []byte{' '})
	entries, err1 := strconv.Atoi(string(entryCount))
	subtrees, err2 := strconv.Atoi(string(subtreeCount))
	if !ok || err1 != nil || err2 != nil || subtrees < 0 {
		return nil, nil, errors.New("cache tree: bad counts")
	}
	data = data[nul+1+nl+1:]
	var id []byte
	if entries >= 0 {
		if len(data) < 20 {
			return nil, nil, errors.New("cache tree: truncated id")
		}
		id, data = data[:20], data[20:]
	}
	mine := candidates
	if depth > 0 {
		mine = nil
		for _, p := range candidates {
			if len(p) > depth && p[depth-1] == name {
				mine = append(mine, p)
			}
		}
	}
	out = append(out, name...)
	out = append(out, 0)
	if len(mine) > 0 {
		out = append(out, "-1 "...)
		out = strconv.AppendInt(out, int64(subtrees), 10)
		out = append(out, '\n')
	} else {
		out = append(out, counts...)
		out = append(out, '\n')
		out = append(out, id...)
	}
	for range subtrees {
		var err error
		if data, out, err = invalidateNode(data, out, mine, depth+1); err != nil {
			return nil, nil, err
		}
	}
	return data, out, nil
}
