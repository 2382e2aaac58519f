package mcpserver

import (
	"testing"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
)

// DecodeWire is decodeWire, for the tests outside the package.
var DecodeWire = tool.DecodeWire

// Instructions are the server's instructions, for the tests outside the
// package.
var Instructions = tools.Profile().Instructions

// ProfileTools lists the names of a profile's tools.
func ProfileTools(profile string) []string {
	var names []string
	for _, t := range profiles[profile].Tools() {
		names = append(names, t.Name)
	}
	return names
}

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
