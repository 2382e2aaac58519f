//go:build windows

package gitsync

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// noTerminal runs git without a console of its own: none opens on the
// screen, and ssh has none to ask a passphrase or a host key on.
func noTerminal() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{HideWindow: true, CreationFlags: windows.CREATE_NO_WINDOW}
}
