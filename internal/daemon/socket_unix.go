//go:build !windows

package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
)

// maxSocketPath is the longest socket path unix systems accept (108 bytes
// with the terminating NUL on Linux, 104 on macOS).
const maxSocketPath = 103

// listenSocket listens on the daemon's unix socket at path, in place of a
// dead daemon's socket file (the caller holds the daemon lock), readable
// by this user only.
func listenSocket(path string) (net.Listener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove the stale socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, listenError(err)
	}
	if err := restrictSocket(path); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, err
	}
	return ln, nil
}

// removeSocket removes the socket file once the daemon no longer listens.
func removeSocket(path string) { os.Remove(path) }

// dialSocket connects to the daemon's socket at path.
func dialSocket(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}
