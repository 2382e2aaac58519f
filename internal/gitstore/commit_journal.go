package gitstore

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/wikid/wikid/internal/gitstore/internal/journal"
)

// txnDir is the folder of the journals (see package journal).
func (s *Store) txnDir() string { return filepath.Join(s.Dir(), "txn") }

// writeJournal stores a new journal for this process (see journal.Write);
// a journal that cannot be created is a lock that cannot be.
func (s *Store) writeJournal(j *journal.Journal, alongside func()) error {
	err := journal.Write(s.txnDir(), j, alongside)
	if ce := (*journal.CreateError)(nil); errors.As(err, &ce) {
		return lockCreateError(ce.Path, ce.Err)
	}
	return err
}

// removeJournal deletes a journal whose transaction is over.
func (s *Store) removeJournal(j *journal.Journal) {
	if err := j.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("the transaction journal could not be removed", "file", j.File(), "err", err)
	}
}

// journals lists the stored journals.
func (s *Store) journals() []*journal.Journal { return journal.List(s.txnDir()) }
