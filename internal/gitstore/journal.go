package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wikid/wikid/internal/procid"
)

// A journal records a commit in progress, so that a process killed in the
// middle of one leaves nothing that blocks the next: it is written (and
// synced) to <gitdir>/wikid/txn/<pid>-<start>-<tag>.json before the commit
// takes a lock, and removed once the commit landed or was rolled back. The
// tag marks everything the commit makes: its index lock holds "wikid
// <name>\n", its temporary files are named .wikid-<tag>-*.tmp and
// tmp_obj_<tag>*, and its ref lock holds the new commit the journal names.
// A lock file is removed by recovery only when its content proves it ours.
//
// A process that rolls back a journal first renames it to
// <name>.json.recovering-<its pid>-<its start>, so that two processes never
// recover one transaction at once, and one that is killed while recovering
// leaves a claim the next process takes over.
type journal struct {
	Host   string        `json:"host"`             // where the pid means something (procid.Host)
	Branch string        `json:"branch"`           // the ref moved, "refs/heads/main"
	Parent string        `json:"parent,omitempty"` // the commit it was at; "" on an unborn branch
	Commit string        `json:"commit"`           // the new commit
	Paths  []journalPath `json:"paths,omitempty"`  // the checkout files touched

	name  string // <pid>-<start>-<tag>
	tag   string
	file  string    // where it is stored now
	owner procid.ID // the process that writes or recovers it
	// elsewhere is set for a journal of another host or pid namespace,
	// whose pid names a process this one cannot see.
	elsewhere bool
}

// journalPath is one touched file: its blob before and after the commit
// ("" when absent).
type journalPath struct {
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

const recoveringSuffix = ".recovering-"

// txnDir is the folder of the journals.
func (s *Store) txnDir() string { return filepath.Join(s.Dir(), "txn") }

// newTag returns a random tag for a transaction's files.
func newTag() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// alive reports whether the journal's process may still run: it runs, or
// it is elsewhere, or whether it runs cannot be told. A transaction is only
// rolled back when its process is known to be gone.
func (j *journal) alive() bool { return j.elsewhere || j.owner.Alive() }

// indexLockContent is what this transaction's index.lock holds.
func (j *journal) indexLockContent() []byte { return []byte("wikid " + j.name + "\n") }

// refLockContent is what this transaction's ref lock holds: the new commit,
// as git reads a ref.
func (j *journal) refLockContent() []byte { return []byte(j.Commit + "\n") }

// writeJournal stores a new journal for this process, synced before it
// returns. alongside, when not nil, runs while the journal is synced, once
// it exists, so that a file it writes (named with the journal's tag) is
// one recovery finds, and its sync goes to the disk with the journal's.
func (s *Store) writeJournal(j *journal, alongside func()) error {
	j.tag = newTag()
	j.owner, j.Host = procid.Self(), procid.Host()
	j.name = j.owner.String() + "-" + j.tag
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.MkdirAll(s.txnDir(), 0o777); err != nil {
		return lockCreateError(s.txnDir(), err)
	}
	j.file = filepath.Join(s.txnDir(), j.name+".json")
	f, err := os.OpenFile(j.file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return lockCreateError(j.file, err)
	}
	_, err = f.Write(b)
	var other chan struct{}
	if err == nil && alongside != nil {
		other = make(chan struct{})
		go func() {
			defer close(other)
			alongside()
		}()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if other != nil {
		<-other
	}
	if err != nil {
		os.Remove(j.file)
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// removeJournal deletes a journal whose transaction is over.
func (s *Store) removeJournal(j *journal) {
	if err := os.Remove(j.file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("the transaction journal could not be removed", "file", j.file, "err", err)
	}
}

// journals lists the stored journals. A journal that cannot be read is
// listed without its content (its transaction had not taken a lock yet
// when it was being written), so that it is still cleaned up.
func (s *Store) journals() []*journal {
	entries, err := os.ReadDir(s.txnDir())
	if err != nil {
		return nil
	}
	var out []*journal
	for _, e := range entries {
		name, claim, ok := strings.Cut(e.Name(), ".json")
		if !ok {
			continue
		}
		parts := strings.Split(name, "-")
		if len(parts) != 3 {
			continue
		}
		owner, err := procid.Parse(parts[0] + "-" + parts[1])
		if err != nil {
			continue
		}
		if claim != "" {
			// Only a claim, <name>.json.recovering-<pid>-<start>, follows
			// the name; anything else is no journal.
			rest, claimed := strings.CutPrefix(claim, recoveringSuffix)
			if owner, err = procid.Parse(rest); !claimed || err != nil {
				continue
			}
		}
		j := &journal{name: name, tag: parts[2], file: filepath.Join(s.txnDir(), e.Name()), owner: owner}
		if b, err := os.ReadFile(j.file); err == nil {
			json.Unmarshal(b, j)
		}
		j.elsewhere = claim == "" && j.Host != "" && j.Host != procid.Host()
		out = append(out, j)
	}
	return out
}

// claim renames a journal to say that this process recovers it. It
// reports false when another process claimed it first.
func (s *Store) claim(j *journal) bool {
	self := procid.Self()
	to := filepath.Join(s.txnDir(), j.name+".json"+recoveringSuffix+self.String())
	if err := os.Rename(j.file, to); err != nil {
		return false
	}
	j.file, j.owner, j.elsewhere = to, self, false
	return true
}

// unclaim gives a journal back for a later recovery.
func (s *Store) unclaim(j *journal) {
	to := filepath.Join(s.txnDir(), j.name+".json")
	if err := os.Rename(j.file, to); err == nil {
		j.file = to
	}
}
