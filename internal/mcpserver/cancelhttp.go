package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
)

// httpCalls holds the calls of HTTP sessions in flight, by session and
// request id, each with whether its client has cancelled it: a cancelled
// call is not answered, as the specification asks. (On protocol 2026-07-28
// a client cancels by closing its request, which has no session.)
type httpCalls struct{ m sync.Map }

// callKey is a call's key: its session's id and its own.
func callKey(session string, id json.RawMessage) string {
	return session + "\x00" + canonicalID(id)
}

// track registers the call msg of session, when it is a request of a
// session, and returns the writer its answer goes through and what to call
// when it has been answered.
func (c *httpCalls) track(w http.ResponseWriter, session string, msg envelope) (http.ResponseWriter, func()) {
	if session == "" || msg.Method == "" || len(msg.ID) == 0 {
		return w, func() {}
	}
	key := callKey(session, msg.ID)
	cw := &cancelWriter{ResponseWriter: w, id: canonicalID(msg.ID)}
	c.m.Store(key, &cw.cancelled)
	return cw, func() { c.m.Delete(key) }
}

// cancel marks the call a notifications/cancelled of session names as
// cancelled, when n is one and the call is in flight.
func (c *httpCalls) cancel(session string, n envelope) {
	if session == "" || n.Method != string(mcp.MethodNotificationCancelled) || len(n.Params.RequestID) == 0 {
		return
	}
	if f, ok := c.m.Load(callKey(session, n.Params.RequestID)); ok {
		f.(*atomic.Bool).Store(true)
	}
}

// cancelWriter passes a call's answer on unless the call was cancelled:
// then a JSON answer becomes 202 Accepted without a body, and the answer
// in an event stream is left out, while the progress before it is sent.
type cancelWriter struct {
	http.ResponseWriter
	id        string // the call's id, canonical
	cancelled atomic.Bool
	wrote     bool // the header
	dropping  bool
}

func (w *cancelWriter) WriteHeader(code int) {
	w.wrote = true
	if w.cancelled.Load() && code == http.StatusOK && w.Header().Get("Content-Type") == "application/json" {
		w.dropping = true
		w.Header().Del("Content-Type")
		w.ResponseWriter.WriteHeader(http.StatusAccepted)
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.dropping || w.cancelled.Load() && w.answers(p) {
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// answers reports whether p, an event of a stream, is the call's answer.
func (w *cancelWriter) answers(p []byte) bool {
	_, data, ok := bytes.Cut(p, []byte("data: "))
	if !ok {
		return false
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return json.Unmarshal(bytes.TrimSpace(data), &msg) == nil && msg.Method == "" && len(msg.ID) > 0 && canonicalID(msg.ID) == w.id
}

// Flush flushes an event stream.
func (w *cancelWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *cancelWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
