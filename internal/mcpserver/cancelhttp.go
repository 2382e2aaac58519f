package mcpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpCalls holds the HTTP calls in flight, by session and request id,
// each with whether its client has cancelled it: a cancelled call is not
// answered, as the specification asks. A call of protocol 2026-07-28 or
// later has no session: its client cancels it by closing its request, or
// by a notifications/cancelled POSTed on its own while the call's POST
// stays open, which names the call by its id alone.
type httpCalls struct{ m sync.Map }

// modernScope stands for the session of calls of protocol 2026-07-28 or
// later, which have none.
const modernScope = "\x01modern"

// callScope is what a call's id is unique within: its session, or all the
// calls of the sessionless protocol; "" for a call that cannot be
// cancelled (initialize).
func callScope(h http.Header, session string) string {
	if mcp.IsModernProtocol(h.Get(mcp.HeaderProtocolVersion)) {
		return modernScope
	}
	return session
}

// callKey is a call's key: its scope's and its own id.
func callKey(scope string, id json.RawMessage) string {
	return scope + "\x00" + canonicalID(id)
}

// track registers the call msg of r, when it is a request, and returns
// the writer its answer goes through, the request to serve (its context
// holds the call's answerCode), and what to call when it has been
// answered.
func (c *httpCalls) track(w http.ResponseWriter, r *http.Request, msg envelope) (http.ResponseWriter, *http.Request, func()) {
	if msg.Method == "" || len(msg.ID) == 0 {
		return w, r, func() {}
	}
	ctx, answer := withAnswerCode(r.Context())
	r = r.WithContext(ctx)
	cw := &cancelWriter{ResponseWriter: w, id: canonicalID(msg.ID), answer: answer, req: r.Header}
	scope := callScope(r.Header, r.Header.Get(server.HeaderKeySessionID))
	if scope == "" {
		return cw, r, func() {}
	}
	key := callKey(scope, msg.ID)
	c.m.Store(key, &cw.cancelled)
	return cw, r, func() { c.m.CompareAndDelete(key, &cw.cancelled) }
}

// cancel marks the call a notifications/cancelled of r names as
// cancelled, when n is one and the call is in flight.
func (c *httpCalls) cancel(r *http.Request, n envelope) {
	if n.Method != string(mcp.MethodNotificationCancelled) || len(n.Params.RequestID) == 0 {
		return
	}
	scope := callScope(r.Header, r.Header.Get(server.HeaderKeySessionID))
	if scope == "" {
		return
	}
	if f, ok := c.m.Load(callKey(scope, n.Params.RequestID)); ok {
		f.(*atomic.Bool).Store(true)
	}
}

// cancelWriter passes a call's answer on unless the call was cancelled:
// then a JSON answer becomes 202 Accepted without a body, and the answer
// in an event stream is left out, while the progress before it is sent.
//
// It also gives the answer the error code its handler recorded (see
// answerCode), in a JSON answer or in the stream's last event.
type cancelWriter struct {
	http.ResponseWriter
	id        string // the call's id, canonical
	answer    *answerCode
	req       http.Header // the request's
	cancelled atomic.Bool
	wrote     bool // the header
	dropping  bool
}

func (w *cancelWriter) WriteHeader(code int) {
	w.wrote = true
	json := w.Header().Get("Content-Type") == "application/json"
	if w.cancelled.Load() && code == http.StatusOK && json {
		w.dropping = true
		w.Header().Del("Content-Type")
		w.ResponseWriter.WriteHeader(http.StatusAccepted)
		return
	}
	if c, _ := w.answer.get(); c != 0 && json && (code == http.StatusOK || code == http.StatusBadRequest) {
		code = httpStatus(w.req, c)
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
	if out := w.recoded(p); out != nil {
		if _, err := w.ResponseWriter.Write(out); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

// recoded returns p with the answer's error code, when the handler
// recorded one and p is the answer, as JSON or as an event; else nil.
func (w *cancelWriter) recoded(p []byte) []byte {
	if c, _ := w.answer.get(); c == 0 {
		return nil
	}
	if before, data, ok := bytes.Cut(p, []byte("data: ")); ok {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		out := recodeJSON(line, w.id, w.answer)
		if out == nil {
			return nil
		}
		return append(append(append(append(before, "data: "...), out...), '\n'), rest...)
	}
	out := recodeJSON(p, w.id, w.answer)
	if out == nil {
		return nil
	}
	return append(out, '\n')
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
