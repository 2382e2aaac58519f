package gitstore

import (
	"errors"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// classify gives *errp, the error a writing method of the store returns,
// its contract code when the file system is full or read-only (see
// wiki.FromOS), and logs the error it stands for. Every write of a commit
// (journal, lock files, objects, the checkout's files, the index, the ref
// and its log) returns through such a method, so this is the one place
// their errors are classified. A failure whose rollback failed too (which
// renames the old files back, needing no space, but may still fail) says
// so: the branch did not move, but the checkout was left changed.
func (s *Store) classify(op string, errp *error) {
	if wiki.CodeOf(*errp) != wiki.CodeInternal {
		return
	}
	c := wiki.FromOS(*errp)
	var e *wiki.Error
	if !errors.As(c, &e) {
		return
	}
	s.log.Info(op+" failed", "code", e.Code, "err", *errp)
	if errors.Is(*errp, errNotPutBack) {
		e.Message += "; nothing was committed, but the checkout could not be put back as it was"
		e.Hint = strings.TrimSuffix(e.Hint, ", then retry") +
			"; then put the files that `git status` shows back as HEAD has them, and retry"
	}
	*errp = c
}
