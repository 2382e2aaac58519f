// Package refdir reads refs as git keeps them on disk: a loose ref's file,
// packed-refs (parsed once per version of the file), every ref under a
// prefix, and packed-refs without one of its refs. It takes no lock: the
// store that moves refs does.
package refdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// Packed caches the parsed packed-refs file, reloading it when the file
// changes. Its zero value is ready; it is safe for concurrent use.
type Packed struct {
	mu   sync.Mutex
	fi   os.FileInfo // of the file parsed
	refs map[string]plumbing.Hash
}

// Lookup returns a ref's id from the packed-refs file at path.
func (p *Packed) Lookup(path, name string) (plumbing.Hash, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.load(path); err != nil {
		return plumbing.ZeroHash, false, err
	}
	id, ok := p.refs[name]
	return id, ok, nil
}

// Under returns the refs of the packed-refs file at path whose names start
// with prefix.
func (p *Packed) Under(path, prefix string) (map[string]plumbing.Hash, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.load(path); err != nil {
		return nil, err
	}
	out := map[string]plumbing.Hash{}
	for name, id := range p.refs {
		if strings.HasPrefix(name, prefix) {
			out[name] = id
		}
	}
	return out, nil
}

// load parses the file at path again if it changed. The caller holds p.mu.
func (p *Packed) load(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		p.refs, p.fi = nil, nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("read packed-refs: %w", err)
	}
	if p.refs == nil || !sameVersion(p.fi, fi) {
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read packed-refs: %w", err)
		}
		p.refs = gitformat.ParsePackedRefs(b)
		p.fi = fi
	}
	return nil
}

// sameVersion reports whether two stats of a file show one version of it:
// the same file (not another renamed over it), size and modification time.
func sameVersion(a, b os.FileInfo) bool {
	return a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && os.SameFile(a, b)
}

// ReadLoose returns the trimmed first line of the loose ref file at path,
// "" when there is none (or a folder is there).
func ReadLoose(path, name string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.EISDIR) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read ref %s: %w", name, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if v := strings.TrimSpace(line); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("read ref %s: empty file", name)
}

// Loose returns the loose refs under prefix in the common git directory
// dir that hold an id, skipping lock files and temporary files.
func Loose(dir, prefix string) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	root := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) || gitformat.CheckRefName(name) != nil {
			return nil
		}
		v, err := ReadLoose(path, name)
		if id, ok := gitformat.ParseHex(v); ok && err == nil {
			out[name] = id
		}
		return err
	})
	return out, err
}

// DropPacked returns packed-refs content b without ref's line and the
// peeled "^" line that follows it, and whether it was there.
func DropPacked(b []byte, ref string) ([]byte, bool) {
	var out bytes.Buffer
	found, skipPeeled := false, false
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 || skipPeeled && line[0] == '^' {
			continue
		}
		skipPeeled = false
		if _, name, ok := strings.Cut(strings.TrimRight(string(line), "\r\n"), " "); ok && line[0] != '#' && name == ref {
			found, skipPeeled = true, true
			continue
		}
		out.Write(line)
	}
	return out.Bytes(), found
}

// Path is the file of loose ref name: pseudo-refs such as HEAD live in the
// git directory of a worktree, refs/ in the common one.
func Path(gitDir, commonDir, name string) string {
	if !strings.HasPrefix(name, "refs/") {
		return filepath.Join(gitDir, filepath.FromSlash(name))
	}
	return filepath.Join(commonDir, filepath.FromSlash(name))
}

// Resolve follows symbolic refs from name, at most depth of them, and
// returns the ref it ends at, the id that ref points at, and whether it
// exists: the loose ref file, else its line in packed-refs.
func Resolve(gitDir, commonDir string, p *Packed, name string, depth int) (string, plumbing.Hash, bool, error) {
	for range depth {
		if err := gitformat.CheckRefName(name); err != nil {
			return name, plumbing.ZeroHash, false, err
		}
		v, err := ReadLoose(Path(gitDir, commonDir, name), name)
		if err != nil {
			return name, plumbing.ZeroHash, false, err
		}
		if v == "" {
			id, ok, err := p.Lookup(filepath.Join(commonDir, "packed-refs"), name)
			return name, id, ok, err
		}
		if target, ok := strings.CutPrefix(v, "ref:"); ok {
			name = strings.TrimSpace(target)
			continue
		}
		id, ok := gitformat.ParseHex(v)
		if !ok {
			return name, plumbing.ZeroHash, false, fmt.Errorf("ref %s: bad value %q", name, v)
		}
		return name, id, true, nil
	}
	return name, plumbing.ZeroHash, false, fmt.Errorf("ref %s: too many levels of symbolic refs", name)
}

// Head reads HEAD: the branch it points at and that branch's commit, or
// the commit of a detached HEAD.
func Head(gitDir, commonDir string, p *Packed, depth int) (branch string, id plumbing.Hash, detached bool, err error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", id, false, fmt.Errorf("read HEAD: %w", err)
	}
	content := strings.TrimSpace(string(b))
	target, symbolic := strings.CutPrefix(content, "ref:")
	if !symbolic {
		id, ok := gitformat.ParseHex(content)
		if !ok {
			return "", id, false, fmt.Errorf("read HEAD: %q is neither a ref nor a commit id", content)
		}
		return "", id, true, nil
	}
	branch, id, _, err = Resolve(gitDir, commonDir, p, strings.TrimSpace(target), depth)
	if err != nil {
		return branch, plumbing.ZeroHash, false, fmt.Errorf("read HEAD: %w", err)
	}
	return branch, id, false, nil
}

// Under returns the refs under prefix in the common git directory dir,
// loose and packed (a loose ref wins), with the id each points at.
func Under(dir string, p *Packed, prefix string) (map[string]string, error) {
	packed, err := p.Under(filepath.Join(dir, "packed-refs"), prefix)
	if err != nil {
		return nil, err
	}
	loose, err := Loose(dir, prefix)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(packed)+len(loose))
	for _, refs := range []map[string]plumbing.Hash{packed, loose} {
		for name, id := range refs {
			out[name] = id.String()
		}
	}
	return out, nil
}
