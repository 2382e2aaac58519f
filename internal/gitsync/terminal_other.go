//go:build !unix && !windows

package gitsync

import "syscall"

// noTerminal returns nil: git runs as the system starts it.
func noTerminal() *syscall.SysProcAttr { return nil }
