package history

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// header starts the index file; a file with another header is rebuilt.
const header = "wikid history index 2\n"

// load reads the index file into memory and opens it for appending. A
// missing file, or one with another header, is started anew; a damaged
// record and everything after it are cut off. The caller holds syncMu.
func (x *Index) load() {
	b, err := os.ReadFile(x.file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		x.log.Warn("cannot read the history index; rebuilding it", "err", err)
	}
	good := 0
	if bytes.HasPrefix(b, []byte(header)) {
		good = len(header)
		var recs []*pending
		for good < len(b) {
			p, n, err := readRecord(b[good:])
			if err != nil {
				x.log.Warn("history index damaged; rebuilding from the damaged record on", "offset", good, "err", err)
				break
			}
			recs = append(recs, p)
			good += n
		}
		x.mu.Lock()
		if err := x.add(recs); err != nil {
			x.log.Warn("history index damaged; rebuilding it", "err", err)
			x.reset()
			good = 0
		}
		if n := len(x.commits); n > 0 {
			x.head = x.commits[n-1].id.String()
		}
		x.mu.Unlock()
	}
	if good == 0 {
		x.rewrite()
		return
	}
	if good < len(b) {
		if err := os.Truncate(x.file, int64(good)); err != nil {
			x.log.Warn("history index is read-only; new commits are kept in memory", "err", err)
			return
		}
	}
	x.openAppend()
}

// openAppend opens the file for appending.
func (x *Index) openAppend() {
	f, err := os.OpenFile(x.file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		x.log.Warn("history index is read-only; new commits are kept in memory", "err", err)
		return
	}
	x.out = f
}

// reset empties the in-memory index. The caller holds mu for writing.
func (x *Index) reset() {
	x.commits, x.paths, x.touches, x.hasChild, x.tips = nil, nil, nil, nil, 0
	x.byID, x.pathID, x.absent = map[oid]int32{}, map[string]int32{}, map[oid]bool{}
	x.walks.clear()
}

// rewrite writes the whole in-memory index to a new file and renames it
// over the old one. A failure leaves the index in memory only.
func (x *Index) rewrite() {
	b := []byte(header)
	for i := range x.commits {
		b = appendRecord(b, x.toPending(&x.commits[i]))
	}
	if x.out != nil {
		x.out.Close()
		x.out = nil
	}
	tmp := x.file + ".tmp"
	err := os.WriteFile(tmp, b, 0o644)
	if err == nil {
		err = os.Rename(tmp, x.file)
	}
	if err != nil {
		os.Remove(tmp)
		x.log.Warn("cannot write the history index; keeping it in memory", "err", err)
		return
	}
	x.openAppend()
}

// appendFile appends the records to the file with one write, so that
// another process appending to the same file interleaves whole batches.
func (x *Index) appendFile(recs []*pending) {
	if x.out == nil || len(recs) == 0 {
		return
	}
	var b []byte
	for _, p := range recs {
		b = appendRecord(b, p)
	}
	if _, err := x.out.Write(b); err != nil {
		x.log.Warn("cannot append to the history index; keeping new commits in memory", "err", fmt.Errorf("append: %w", err))
		x.out.Close()
		x.out = nil
	}
}
