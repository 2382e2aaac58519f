package mcpserver

import (
	"testing"

	"github.com/wikid/wikid/internal/tool"
)

// BodyBytes returns the bytes of request bodies h holds now, and the most
// it held at once.
func (h *HTTPHandler) BodyBytes() (held, peak int64) {
	return h.bodies.held.Load(), h.bodies.peak.Load()
}

// WithProfile serves p under name until the test ends.
func WithProfile(tb testing.TB, name string, p tool.Profile) {
	profiles[name] = p
	tb.Cleanup(func() { delete(profiles, name) })
}
