package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// maxSocketPath is the longest socket path unix systems accept (108 bytes
// with the terminating NUL on Linux, 104 on macOS).
const maxSocketPath = 103

// Endpoint is where the daemon of one repository lives.
type Endpoint struct {
	// GitDir is the repository's git directory, symbolic links resolved.
	GitDir string
	// Socket is the unix socket clients connect to; Lock the file the
	// running daemon holds locked; Log where a daemon started in the
	// background writes its log.
	Socket, Lock, Log string
}

// RuntimeDir returns the folder for daemon sockets, creating it: the
// WIKID_RUNTIME_DIR environment variable, else $XDG_RUNTIME_DIR/wikid, else
// wikid-<uid> in the temporary folder. It must be a folder of the user's own
// that nobody else can enter; one that is not is refused.
func RuntimeDir(getenv func(string) string) (string, error) {
	dir := getenv("WIKID_RUNTIME_DIR")
	if dir == "" {
		if x := getenv("XDG_RUNTIME_DIR"); x != "" {
			if st, err := os.Stat(x); err == nil && st.IsDir() {
				dir = filepath.Join(x, "wikid")
			}
		}
	}
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "wikid-"+strconv.Itoa(os.Getuid()))
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
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return "", fmt.Errorf("runtime folder %s belongs to another user; set WIKID_RUNTIME_DIR to a folder of your own", dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("runtime folder %s can be entered by others (mode %v); "+
			"make it private with chmod 700, or set WIKID_RUNTIME_DIR", dir, st.Mode().Perm())
	}
	return dir, nil
}

// EndpointFor returns the endpoint of the repository whose git directory
// (as gitstore.Locate returns it) is gitDir, in the runtime folder dir.
func EndpointFor(dir, gitDir string) (Endpoint, error) {
	sum := sha256.Sum256([]byte(gitDir))
	name := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	e := Endpoint{GitDir: gitDir, Socket: name + ".sock", Lock: name + ".lock", Log: name + ".log"}
	if len(e.Socket) > maxSocketPath {
		return Endpoint{}, fmt.Errorf("the socket path %s is longer than unix allows (%d bytes); set WIKID_RUNTIME_DIR to a shorter folder", e.Socket, maxSocketPath)
	}
	return e, nil
}
