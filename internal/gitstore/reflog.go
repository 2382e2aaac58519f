package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/wiki"
)

// reflogEntry is one line of a reflog.
type reflogEntry struct {
	old, new plumbing.Hash
	who      wiki.Signature
	message  string
}

// format returns the line as git writes it:
// "<old> <new> <name> <<email>> <unix> <+hhmm>\t<message>\n".
func (e reflogEntry) format() []byte {
	msg := strings.ReplaceAll(strings.TrimRight(e.message, "\n"), "\n", " ")
	b := make([]byte, 0, 128+len(msg))
	b = append(b, e.old.String()...)
	b = append(b, ' ')
	b = append(b, e.new.String()...)
	b = append(b, ' ')
	b = appendSignature(b, e.who)
	b = append(b, '\t')
	b = append(b, msg...)
	return append(b, '\n')
}

// appendSignature appends "Name <email> unix +hhmm".
func appendSignature(b []byte, sig wiki.Signature) []byte {
	b = append(b, sig.Name...)
	b = append(b, " <"...)
	b = append(b, sig.Email...)
	b = append(b, "> "...)
	b = strconv.AppendInt(b, sig.When.Unix(), 10)
	b = append(b, ' ')
	return sig.When.AppendFormat(b, "-0700")
}

// appendReflogs appends the entry to the branch's reflog and, since HEAD
// points at the branch, to HEAD's. Like git, it creates a reflog only when
// core.logAllRefUpdates asks for it (the default in a checkout) and
// otherwise appends only to reflogs that exist.
func (s *Store) appendReflogs(ref string, e reflogEntry) error {
	line := e.format()
	if err := appendLog(filepath.Join(s.commonDir, "logs", filepath.FromSlash(ref)), s.cfg.logAll, line); err != nil {
		return err
	}
	return appendLog(filepath.Join(s.gitDir, "logs", "HEAD"), s.cfg.logAll, line)
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

// reflogMessage is git's reflog message for a commit: "commit: <subject>",
// or "commit (initial): <subject>" for the first commit of a branch.
func reflogMessage(message string, initial bool) string {
	subject, _, _ := strings.Cut(strings.TrimLeft(message, "\n"), "\n")
	if initial {
		return "commit (initial): " + subject
	}
	return "commit: " + subject
}
