package gitstore

import (
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
	"github.com/wikid/wikid/internal/wiki"
)

// maxSymrefDepth bounds chains of symbolic refs.
const maxSymrefDepth = 5

// readHead reads HEAD: the branch it points at and that branch's commit.
func (s *Store) readHead() (wiki.Head, error) {
	h := wiki.Head{Bare: s.workTree == ""}
	b, err := os.ReadFile(filepath.Join(s.gitDir, "HEAD"))
	if err != nil {
		return h, fmt.Errorf("read HEAD: %w", err)
	}
	content := strings.TrimSpace(string(b))
	target, symbolic := strings.CutPrefix(content, "ref:")
	if !symbolic {
		id, ok := gitformat.ParseHex(content)
		if !ok {
			return h, fmt.Errorf("read HEAD: %q is neither a ref nor a commit id", content)
		}
		h.Detached = true
		h.Commit = id.String()
		return h, nil
	}
	branch, id, _, err := s.readRef(strings.TrimSpace(target))
	if err != nil {
		return h, fmt.Errorf("read HEAD: %w", err)
	}
	h.Branch = branch
	if !id.IsZero() {
		h.Commit = id.String()
	}
	return h, nil
}

// readRef follows symbolic refs from name and returns the ref it ends at,
// the id that ref points at, and whether it exists: the loose ref file, else
// its line in packed-refs.
func (s *Store) readRef(name string) (string, plumbing.Hash, bool, error) {
	for range maxSymrefDepth {
		if err := gitformat.CheckRefName(name); err != nil {
			return name, plumbing.ZeroHash, false, err
		}
		v, err := s.readLooseRef(name)
		if err != nil {
			return name, plumbing.ZeroHash, false, err
		}
		if v == "" {
			id, ok, err := s.packed.lookup(filepath.Join(s.commonDir, "packed-refs"), name)
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

// readLooseRef returns the trimmed content of a loose ref file, or "" if
// there is none. Pseudo-refs such as HEAD and FETCH_HEAD live in the git
// directory, other refs in the common directory.
func (s *Store) readLooseRef(name string) (string, error) {
	b, err := os.ReadFile(s.refPath(name))
	if errors.Is(err, fs.ErrNotExist) || isDirErr(err) {
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

// refPath is the file of a loose ref.
func (s *Store) refPath(name string) string {
	if !strings.HasPrefix(name, "refs/") {
		return filepath.Join(s.gitDir, filepath.FromSlash(name))
	}
	return filepath.Join(s.commonDir, filepath.FromSlash(name))
}

// isDirErr reports whether err comes from reading a folder as a file.
func isDirErr(err error) bool { return errors.Is(err, syscall.EISDIR) }

// packedRefs caches the parsed packed-refs file, reloading it when the file
// changes.
type packedRefs struct {
	mu   sync.Mutex
	fi   os.FileInfo // of the file parsed
	refs map[string]plumbing.Hash
}

// lookup returns a ref's id from the packed-refs file at path.
func (p *packedRefs) lookup(path, name string) (plumbing.Hash, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.load(path); err != nil {
		return plumbing.ZeroHash, false, err
	}
	id, ok := p.refs[name]
	return id, ok, nil
}

// load parses the packed-refs file at path again if it changed. The caller
// holds p.mu.
func (p *packedRefs) load(path string) error {
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
