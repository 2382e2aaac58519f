package mcpserver

// BodyBytes returns the bytes of request bodies h holds now, and the most
// it held at once.
func (h *HTTPHandler) BodyBytes() (held, peak int64) {
	return h.bodies.held.Load(), h.bodies.peak.Load()
}
