//go:build unix

package daemon

import (
	"fmt"
	"os"
	"syscall"
)

// checkPrivate returns an error unless the runtime folder dir (st) is the
// user's own and nobody else can enter it.
func checkPrivate(dir string, st os.FileInfo) error {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("runtime folder %s belongs to another user; set WIKID_RUNTIME_DIR to a folder of your own", dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("runtime folder %s can be entered by others (mode %v); "+
			"make it private with chmod 700, or set WIKID_RUNTIME_DIR", dir, st.Mode().Perm())
	}
	return nil
}

// restrictSocket lets only the user open the socket at name.
func restrictSocket(name string) error { return os.Chmod(name, 0o600) }

// checkRecord returns an error unless the daemon record name (st) is the
// user's own and nobody else can read or write it.
func checkRecord(name string, st os.FileInfo) error {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("daemon record %s belongs to another user", name)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("daemon record %s is open to others (mode %v)", name, st.Mode().Perm())
	}
	return nil
}
