// Package journal records a commit in progress, so that a process killed
// in the middle of one leaves nothing that blocks the next: gitstore writes
// (and syncs) a journal to <gitdir>/wikid/txn/<pid>-<start>-<tag>.json
// before the commit takes a lock, and removes it once the commit landed or
// was rolled back. The tag marks everything the commit makes: its index
// lock holds "wikid <name>\n", its temporary files are named
// .wikid-<tag>-*.tmp and tmp_obj_<tag>*, and its ref lock holds the new
// commit the journal names. A lock file is removed by recovery only when
// its content proves it ours.
//
// A process that rolls back a journal first renames it to
// <name>.json.recovering-<its pid>-<its start> (Claim), so that two
// processes never recover one transaction at once, and one that is killed
// while recovering leaves a claim the next process takes over.
package journal

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wikid/wikid/internal/procid"
)

// Journal is one commit in progress: what it moves and which checkout
// files it touches, and the process that writes or recovers it.
type Journal struct {
	Host   string `json:"host"`             // where the pid means something (procid.Host)
	Branch string `json:"branch"`           // the ref moved, "refs/heads/main"
	Parent string `json:"parent,omitempty"` // the commit it was at; "" on an unborn branch
	Commit string `json:"commit"`           // the new commit
	Paths  []Path `json:"paths,omitempty"`  // the checkout files touched

	name  string // <pid>-<start>-<tag>
	tag   string
	file  string    // where it is stored now
	owner procid.ID // the process that writes or recovers it
	// elsewhere is set for a journal of another host or pid namespace,
	// whose pid names a process this one cannot see.
	elsewhere bool
}

// Path is one touched file: its blob before and after the commit ("" when
// absent).
type Path struct {
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// CreateError is returned by Write when the journal's folder or file cannot
// be created, so that the caller can tell a read-only repository.
type CreateError struct {
	Path string
	Err  error
}

// Error says which file could not be created and why.
func (e *CreateError) Error() string { return fmt.Sprintf("create %s: %v", e.Path, e.Err) }

// Unwrap returns the cause.
func (e *CreateError) Unwrap() error { return e.Err }

const (
	recoveringSuffix = ".recovering-"
	ext              = ".json"
)

// Name returns the journal's name, <pid>-<start>-<tag>.
func (j *Journal) Name() string { return j.name }

// Tag returns the random tag that names the transaction's files.
func (j *Journal) Tag() string { return j.tag }

// File returns where the journal is stored now.
func (j *Journal) File() string { return j.file }

// Owner returns the process that writes or recovers the journal.
func (j *Journal) Owner() procid.ID { return j.owner }

// Alive reports whether the journal's process may still run: it runs, or
// it is elsewhere, or whether it runs cannot be told. A transaction is only
// rolled back when its process is known to be gone.
func (j *Journal) Alive() bool { return j.elsewhere || j.owner.Alive() }

// IndexLockContent is what the transaction's index.lock holds.
func (j *Journal) IndexLockContent() []byte { return []byte("wikid " + j.name + "\n") }

// RefLockContent is what the transaction's ref lock holds: the new commit,
// as git reads a ref.
func (j *Journal) RefLockContent() []byte { return []byte(j.Commit + "\n") }

// newTag returns a random tag for a transaction's files.
func newTag() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Write stores j in dir as a new journal of this process, synced before it
// returns. alongside, when not nil, runs while the journal is synced, once
// it exists, so that a file it writes (named with the journal's tag) is one
// recovery finds, and its sync goes to the disk with the journal's. A
// folder or file that cannot be created is a *CreateError.
func Write(dir string, j *Journal, alongside func()) error {
	j.tag = newTag()
	j.owner, j.Host = procid.Self(), procid.Host()
	j.name = j.owner.String() + "-" + j.tag
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return &CreateError{Path: dir, Err: err}
	}
	j.file = filepath.Join(dir, j.name+ext)
	f, err := os.OpenFile(j.file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return &CreateError{Path: j.file, Err: err}
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

// Remove deletes a journal whose transaction is over.
func (j *Journal) Remove() error { return os.Remove(j.file) }

// List returns the journals stored in dir. A journal that cannot be read
// is listed without its content (its transaction had not taken a lock yet
// when it was being written), so that it is still cleaned up.
func List(dir string) []*Journal {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*Journal
	for _, e := range entries {
		name, claim, ok := strings.Cut(e.Name(), ext)
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
		j := &Journal{name: name, tag: parts[2], file: filepath.Join(dir, e.Name()), owner: owner}
		if b, err := os.ReadFile(j.file); err == nil {
			json.Unmarshal(b, j)
		}
		j.elsewhere = claim == "" && j.Host != "" && j.Host != procid.Host()
		out = append(out, j)
	}
	return out
}

// Claim renames the journal to say that this process recovers it. It
// reports false when another process claimed it first.
func (j *Journal) Claim() bool {
	self := procid.Self()
	to := filepath.Join(filepath.Dir(j.file), j.name+ext+recoveringSuffix+self.String())
	if err := os.Rename(j.file, to); err != nil {
		return false
	}
	j.file, j.owner, j.elsewhere = to, self, false
	return true
}

// Unclaim gives the journal back for a later recovery.
func (j *Journal) Unclaim() {
	to := filepath.Join(filepath.Dir(j.file), j.name+ext)
	if err := os.Rename(j.file, to); err == nil {
		j.file = to
	}
}
