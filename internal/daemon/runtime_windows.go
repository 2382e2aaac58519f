//go:build windows

package daemon

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// checkPrivate returns an error unless the runtime folder dir is the
// user's own. Windows has no mode bits: who may enter the folder is said by
// its access list, which a folder made in %LOCALAPPDATA% inherits from it
// (the user, the system and administrators only).
func checkPrivate(dir string, _ os.FileInfo) error {
	owner, err := fileOwner(dir)
	if err != nil {
		return fmt.Errorf("runtime folder %s: its owner: %w", dir, err)
	}
	self, err := currentUser()
	if err != nil {
		return fmt.Errorf("runtime folder: this user: %w", err)
	}
	if !owner.Equals(self) && !owner.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
		return fmt.Errorf("runtime folder %s belongs to another user; set WIKID_RUNTIME_DIR to a folder of your own", dir)
	}
	return nil
}

// checkRecord returns an error unless the daemon record name is the
// user's own.
func checkRecord(name string, _ os.FileInfo) error {
	owner, err := fileOwner(name)
	if err != nil {
		return fmt.Errorf("daemon record %s: its owner: %w", name, err)
	}
	self, err := currentUser()
	if err != nil {
		return fmt.Errorf("daemon record: this user: %w", err)
	}
	if !owner.Equals(self) {
		return fmt.Errorf("daemon record %s belongs to another user", name)
	}
	return nil
}

// fileOwner returns the owner of the file or folder name.
func fileOwner(name string) (*windows.SID, error) {
	sd, err := windows.GetNamedSecurityInfo(name, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return nil, err
	}
	owner, _, err := sd.Owner()
	return owner, err
}

// processOwner returns the user the process pid runs as.
func processOwner(pid uint32) (*windows.SID, error) {
	proc, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(proc)
	var token windows.Token
	if err := windows.OpenProcessToken(proc, windows.TOKEN_QUERY, &token); err != nil {
		return nil, err
	}
	defer token.Close()
	u, err := token.GetTokenUser()
	if err != nil {
		return nil, err
	}
	return u.User.Sid, nil
}

// currentUser returns the user this process runs as.
func currentUser() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, err
	}
	return u.User.Sid, nil
}

// restrictSocket does nothing: the socket file takes the access list of
// the runtime folder it is made in.
func restrictSocket(string) error { return nil }
