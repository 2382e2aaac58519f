package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// reflogEntry is one line of a reflog.
type reflogEntry struct {
	old, new plumbing.Hash
	who      wiki.Signature
	message  string
}

// appendReflogs appends the entry to the branch's reflog and, since HEAD
// points at the branch, to HEAD's. Like git, it creates a reflog only when
// core.logAllRefUpdates asks for it (the default in a checkout) and
// otherwise appends only to reflogs that exist.
func (s *Store) appendReflogs(ref string, e reflogEntry) error {
	line := gitformat.ReflogLine(e.old, e.new, gitformat.Signature(e.who), e.message)
	if err := appendLog(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)), s.cfg.LogAll, line); err != nil {
		return err
	}
	return appendLog(filepath.Join(s.gitDir, "logs", "HEAD"), s.cfg.LogAll, line)
}

func appendLog(name string, create bool, line []byte) error {
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			return fmt.Errorf("reflog: %w", err)
		}
		flags |= os.O_CREATE
	}
	f, err := os.OpenFile(name, flags, 0o666)
	if !create && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reflog: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("reflog %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("reflog %s: %w", name, err)
	}
	return nil
}
