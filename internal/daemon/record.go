package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/wikid/wikid/internal/procid"
)

// A daemon is found through its repository: the folder wikid/daemon in the
// git folder (repoFolder), made by the first process that looks, private
// to the user, holds the daemon lock and the record of the running
// daemon (its socket, log and process). Every client of the same user
// looks there first, so it reaches the daemon whatever runtime folder its
// own environment names (one started without XDG_RUNTIME_DIR, by launchd,
// cron, ssh or a desktop session); the runtime folder stays where the
// socket lives. A repository that has no room for the folder (one this user
// cannot write) keeps the lock beside the socket, without a record.
const (
	repoFolder = "daemon"
	recordName = "daemon.json"
	// lockName is the daemon lock's file, which holds the daemon's pid: not
	// named *.lock, which in a git folder is a git lock file, taken for a
	// leftover when it stays.
	lockName = "daemon.pid"
)

// Record is what a running daemon writes into its repository for its
// clients to find it.
type Record struct {
	// Socket is the unix socket the daemon listens on (on Windows, the
	// path its named pipe is named from); Log the file its output goes to
	// when started in the background.
	Socket string `json:"socket"`
	Log    string `json:"log"`
	// Process is the daemon's procid.ID (pid and start time), and Host
	// where that means something (procid.Host).
	Process string `json:"process"`
	Host    string `json:"host"`
	// Version is the daemon's wikid version.
	Version string `json:"version,omitempty"`
}

// repoDir returns the daemon folder of the repository whose git folder is
// gitDir, making it (mode 0700) when it is missing. It returns an error
// when it cannot be made, or is not a private folder of this user's own.
func repoDir(gitDir string) (string, error) {
	dir := filepath.Join(gitDir, "wikid", repoFolder)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return dir, checkPrivate(dir, st)
}

// writeRecord writes r as e's record, atomically (a temporary file, mode
// 0600, renamed into place), replacing any record there: the caller holds
// e's lock, so a record there is a dead daemon's.
func writeRecord(e Endpoint, r Record) error {
	if e.Record == "" {
		return nil
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(e.Record), recordName+".*.tmp")
	if err != nil {
		return fmt.Errorf("daemon record: %w", err)
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(f.Name(), e.Record)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("daemon record: %w", err)
	}
	return nil
}

// removeRecord removes e's record when it is this process's.
func removeRecord(e Endpoint) {
	if r, err := readRecord(e.Record); err == nil && r.Process == procid.Self().String() && r.Host == procid.Host() {
		_ = os.Remove(e.Record)
	}
}

// readRecord reads the record at name. It returns an error for a record
// that is missing, not this user's own, open to others, or not one.
func readRecord(name string) (Record, error) {
	if name == "" {
		return Record{}, fs.ErrNotExist
	}
	f, err := os.Open(name)
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Record{}, err
	}
	if err := checkRecord(name, st); err != nil {
		return Record{}, err
	}
	var r Record
	if err := json.NewDecoder(f).Decode(&r); err != nil {
		return Record{}, fmt.Errorf("daemon record %s: %w", name, err)
	}
	if r.Socket == "" || r.Process == "" {
		return Record{}, fmt.Errorf("daemon record %s: no socket or process", name)
	}
	return r, nil
}

// live reports whether r's daemon still runs: a process of this host with
// its pid and start time.
func (r Record) live() bool {
	if r.Host != procid.Host() {
		return false
	}
	id, err := procid.Parse(r.Process)
	return err == nil && id.Alive()
}

// Discover returns e with the socket and log of the daemon its repository
// records, when that daemon runs: so a client reaches the daemon however
// its own runtime folder differs from the daemon's. It returns e as it is
// when there is no record, or a stale one (its process is gone, or of
// another host), or one that is not the user's own.
func Discover(e Endpoint) Endpoint {
	r, err := readRecord(e.Record)
	if err != nil || !r.live() {
		return e
	}
	e.Socket = r.Socket
	if r.Log != "" {
		e.Log = r.Log
	}
	return e
}

// recordInterval is how often a daemon checks that its lock file and
// record are still in the repository.
const recordInterval = 2 * time.Second

// keepRecord keeps the daemon's lock and record in the repository until
// ctx is done: when they are gone (the repository's wikid/ folder was
// removed, which loses nothing else), it takes the lock again in a new
// file and writes the record again, so that a client finds this daemon
// instead of starting a second one. It returns the lock it took, to be
// released when the daemon has stopped, or nil.
func keepRecord(ctx context.Context, e Endpoint, held *Lock, r Record, log *slog.Logger) (again *Lock) {
	if e.Record == "" {
		return nil
	}
	t := time.NewTicker(recordInterval)
	defer t.Stop()
	warned := false
	for {
		select {
		case <-ctx.Done():
			return again
		case <-t.C:
		}
		if held.Held(e) || again != nil && again.Held(e) {
			continue
		}
		if _, err := repoDir(e.GitDir); err != nil {
			continue
		}
		l, err := Acquire(e)
		if err != nil {
			if !warned {
				log.Error("the daemon's lock file was removed, and it cannot take it again", "lock", e.Lock, "err", err)
				warned = true
			}
			continue
		}
		if again != nil {
			again.Release()
		}
		again = l
		if err := writeRecord(e, r); err != nil {
			log.Warn("clients of other environments will not find this daemon", "err", err)
		}
		log.Info("the daemon's lock and record were removed: written again", "lock", e.Lock)
	}
}
