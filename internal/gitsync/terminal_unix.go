//go:build unix

package gitsync

import "syscall"

// noTerminal runs git in a session of its own, without the controlling
// terminal that ssh would ask a passphrase or a host key on.
func noTerminal() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
