package objdir

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// WithPrefix lists the ids of the objects whose hex id starts with prefix
// (at least two lowercase hex digits), from the loose object folders and
// the pack indexes of the object folder objects and its alternates. It
// returns an error for a folder or pack index it cannot read.
func WithPrefix(objects, prefix string) ([]plumbing.Hash, error) {
	seen := make(map[plumbing.Hash]bool)
	var ids []plumbing.Hash
	add := func(id plumbing.Hash) {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	for _, dir := range Dirs(objects) {
		if err := looseWithPrefix(dir, prefix, add); err != nil {
			return nil, err
		}
		idx, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, name := range idx {
			if err := packedWithPrefix(name, prefix, add); err != nil {
				return nil, err
			}
		}
	}
	return ids, nil
}

// Dirs returns the object folder dir and those of its alternates
// (info/alternates), relative ones resolved.
func Dirs(dir string) []string {
	dirs := []string{dir}
	f, err := os.Open(filepath.Join(dir, "info", "alternates"))
	if err != nil {
		return dirs
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		dirs = append(dirs, filepath.Clean(line))
	}
	return dirs
}

// looseWithPrefix scans the loose object folder for the prefix.
func looseWithPrefix(objects, prefix string, add func(plumbing.Hash)) error {
	entries, err := os.ReadDir(filepath.Join(objects, prefix[:2]))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("scan loose objects: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix[2:]) {
			if id, ok := gitformat.ParseHex(prefix[:2] + e.Name()); ok {
				add(id)
			}
		}
	}
	return nil
}

// packedWithPrefix scans one pack index for the prefix: the fan-out table
// gives the range of ids starting with the first byte. Only version 2
// indexes (git's default since 2007) are read, as by go-git.
func packedWithPrefix(name, prefix string, add func(plumbing.Hash)) error {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed by a concurrent repack
	}
	if err != nil {
		return fmt.Errorf("scan pack index: %w", err)
	}
	defer f.Close()
	var head [8]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("scan pack index %s: %w", name, err)
	}
	if string(head[:4]) != "\377tOc" || binary.BigEndian.Uint32(head[4:]) != 2 {
		return fmt.Errorf("scan pack index %s: not a version 2 pack index", name)
	}
	const fanout, names = 8, 8 + 1024
	first, err := hex.DecodeString(prefix[:2])
	if err != nil {
		return err
	}
	var table [1024]byte
	if _, err := f.ReadAt(table[:], fanout); err != nil {
		return fmt.Errorf("scan pack index %s: %w", name, err)
	}
	lo, hi := uint32(0), binary.BigEndian.Uint32(table[4*int(first[0]):])
	if first[0] > 0 {
		lo = binary.BigEndian.Uint32(table[4*int(first[0]-1):])
	}
	if hi <= lo {
		return nil
	}
	buf := make([]byte, int64(hi-lo)*20)
	if _, err := f.ReadAt(buf, names+int64(lo)*20); err != nil {
		return fmt.Errorf("scan pack index %s: %w", name, err)
	}
	for i := int64(0); i < int64(hi-lo); i++ {
		var id plumbing.Hash
		copy(id[:], buf[i*20:])
		if strings.HasPrefix(id.String(), prefix) {
			add(id)
		}
	}
	return nil
}
