package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Endpoint is where the daemon of one repository lives.
type Endpoint struct {
	// GitDir is the repository's git directory, symbolic links resolved.
	GitDir string
	// Socket is the unix socket clients connect to (on Windows, the name
	// of a named pipe: see pipeName); Lock the file the
	// running daemon holds locked; Log where a daemon started in the
	// background writes its log.
	Socket, Lock, Log string
	// Record is the file in the repository where the running daemon
	// records its socket and process (see Discover); "" when the
	// repository has no room for it, and the lock is then beside the
	// socket.
	Record string
}

// RuntimeDir returns the folder for daemon sockets, creating it: the
// WIKID_RUNTIME_DIR environment variable, else the system's per-user
// folder (runtimeDirFor). It must be a folder of the user's own that
// nobody else can enter; one that is not is refused.
func RuntimeDir(getenv func(string) string) (string, error) {
	dir := getenv("WIKID_RUNTIME_DIR")
	if dir == "" {
		dir = runtimeDirFor(runtime.GOOS, getenv, os.TempDir(), os.Getuid(), isDir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("runtime folder: %w", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("runtime folder: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("runtime folder %s is not a folder", dir)
	}
	if err := checkPrivate(dir, st); err != nil {
		return "", err
	}
	return dir, nil
}

// runtimeDirFor returns the default runtime folder on the system goos:
// on Windows wikid\run in %LOCALAPPDATA% (a folder only its user can
// open), else in the temporary folder tmp; elsewhere $XDG_RUNTIME_DIR/wikid
// when that folder exists, else wikid-<uid> in tmp. A daemon's clients
// find it through the repository (see Discover) whatever the folder of
// their environment.
func runtimeDirFor(goos string, getenv func(string) string, tmp string, uid int, isDir func(string) bool) string {
	if goos == "windows" {
		base := getenv("LOCALAPPDATA")
		if base == "" {
			base = tmp
		}
		return strings.TrimRight(base, `\/`) + `\wikid\run`
	}
	if x := getenv("XDG_RUNTIME_DIR"); x != "" && isDir(x) {
		return filepath.Join(x, "wikid")
	}
	return filepath.Join(tmp, "wikid-"+strconv.Itoa(uid))
}

// isDir reports whether name is a folder.
func isDir(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.IsDir()
}

// EndpointFor returns the endpoint of the repository whose git directory
// (as gitstore.Locate returns it) is gitDir, its socket and log in the
// runtime folder dir; its lock and record in the repository's daemon
// folder (wikid/daemon in the git folder, made here, mode 0700), or, when
// the repository has no room for it, its lock beside the socket. A client
// passes the endpoint to Discover to find a daemon started from another
// runtime folder; the functions of this package that connect do so.
func EndpointFor(dir, gitDir string) (Endpoint, error) {
	sum := sha256.Sum256([]byte(gitDir))
	name := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	e := Endpoint{GitDir: gitDir, Socket: name + ".sock", Lock: name + ".lock", Log: name + ".log"}
	if maxSocketPath > 0 && len(e.Socket) > maxSocketPath {
		return Endpoint{}, fmt.Errorf("the socket path %s is longer than unix allows (%d bytes); set WIKID_RUNTIME_DIR to a shorter folder", e.Socket, maxSocketPath)
	}
	if rd, err := repoDir(gitDir); err == nil {
		// One lock for the repository whatever the runtime folder: a
		// client of another environment that starts a daemon finds it
		// held, and the record names the daemon that holds it.
		e.Lock = filepath.Join(rd, lockName)
		e.Record = filepath.Join(rd, recordName)
	}
	return e, nil
}
