package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// HTTPPath is where the HTTP endpoint answers.
const HTTPPath = "/mcp"

// sessionIdleTTL is how long an HTTP session may stay idle; its client
// initializes again after it.
const sessionIdleTTL = time.Hour

// MaxSessions bounds the live HTTP sessions of a server: a new session
// over it ends the least recently used one, whose client initializes
// again. MaxCalls bounds the requests served at once; more wait.
const (
	MaxSessions = 1000
	MaxCalls    = 32
)

// HTTPOptions configure the streamable HTTP endpoint.
type HTTPOptions struct {
	// Token, if not empty, must come with every request as
	// "Authorization: Bearer <token>"; other requests get 401.
	Token string
	// AllowedOrigins are the origins (scheme://host[:port]) that browsers may
	// call from, besides localhost origins, which are always allowed. A
	// request with any other Origin header gets 403; requests without one
	// (not from a browser) are not affected.
	AllowedOrigins []string
}

// HTTPHandler serves MCP over streamable HTTP at HTTPPath, behind the
// Origin check and the bearer token. mcp-go's own DNS-rebinding protection
// (a loopback connection must name a loopback Host) stays on.
type HTTPHandler struct {
	opts    HTTPOptions
	origins map[string]bool
	mcp     *server.StreamableHTTPServer
	calls   chan struct{} // a slot per request served

	mu       sync.Mutex
	sessions map[string]time.Time // live sessions, by when they were last used
}

// HTTPHandler returns the HTTP endpoint of the server.
func (s *Server) HTTPHandler(opts HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{opts: opts, origins: map[string]bool{}, calls: make(chan struct{}, MaxCalls), sessions: map[string]time.Time{}}
	for _, o := range opts.AllowedOrigins {
		h.origins[normalizeOrigin(o)] = true
	}
	h.mcp = server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath(HTTPPath),
		server.WithStreamableHTTPLogger(s.log.WithGroup("http")),
		// Sessions keep the clientInfo of initialize, which names the
		// author of each change; idle ones are dropped after a day, and
		// their client initializes again.
		server.WithStateful(true),
		server.WithSessionIdleTTL(sessionIdleTTL),
	)
	return h
}

// ServeHTTP checks the path, the Origin and the token, in that order, then
// hands the request to the MCP transport.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != HTTPPath {
		refuse(w, "404 page not found", http.StatusNotFound)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		if !h.originAllowed(origin) {
			refuse(w, "Forbidden: origin "+origin+" is not allowed (start wikid serve with --allow-origin "+origin+" to allow it)", http.StatusForbidden)
			return
		}
		hd := w.Header()
		hd.Add("Vary", "Origin")
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
		if r.Method == http.MethodOptions {
			// A CORS preflight carries no credentials; answer it here.
			hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			hd.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if h.opts.Token != "" && !h.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="wikid"`)
		refuse(w, "Unauthorized: send Authorization: Bearer <token>", http.StatusUnauthorized)
		return
	}
	if r.Body != nil && r.Method == http.MethodPost {
		// mcp-go reads the body whole before any limit: read it here, up
		// to the limit, and refuse a larger one before it is decoded.
		if r.ContentLength > MaxRequestBytes {
			tooLarge(w, r.ContentLength)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			tooLarge(w, -1)
			return
		case err != nil:
			http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if r.Method == http.MethodPost {
		// Event streams (GET) stay open; only calls take a slot.
		select {
		case h.calls <- struct{}{}:
			defer func() { <-h.calls }()
		case <-r.Context().Done():
			return
		}
	}
	id := r.Header.Get(server.HeaderKeySessionID)
	h.mcp.ServeHTTP(w, r)
	switch {
	case r.Method == http.MethodDelete:
		h.forget(id)
	case id != "":
		h.touch(id)
	case w.Header().Get(server.HeaderKeySessionID) != "":
		h.added(w.Header().Get(server.HeaderKeySessionID))
	}
}

// touch records that a session was used.
func (h *HTTPHandler) touch(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.sessions[id]; ok {
		h.sessions[id] = time.Now()
	}
}

func (h *HTTPHandler) forget(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sessions, id)
}

// added records a new session and, over MaxSessions, ends the least
// recently used ones, as a DELETE from their client would; sessions idle
// longer than sessionIdleTTL, which mcp-go sweeps, are forgotten.
func (h *HTTPHandler) added(id string) {
	h.mu.Lock()
	now := time.Now()
	h.sessions[id] = now
	var evict []string
	for len(h.sessions) > MaxSessions {
		oldest, at := "", now
		for sid, t := range h.sessions {
			if now.Sub(t) > sessionIdleTTL {
				delete(h.sessions, sid)
				continue
			}
			if t.Before(at) || oldest == "" {
				oldest, at = sid, t
			}
		}
		if oldest == "" || len(h.sessions) <= MaxSessions {
			break
		}
		delete(h.sessions, oldest)
		evict = append(evict, oldest)
	}
	h.mu.Unlock()
	for _, sid := range evict {
		req := httptest.NewRequest(http.MethodDelete, HTTPPath, nil)
		req.Header.Set(server.HeaderKeySessionID, sid)
		h.mcp.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// Sessions returns how many HTTP sessions are live.
func (h *HTTPHandler) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// tooLarge answers a request whose body is over MaxRequestBytes (n bytes,
// or -1 when it did not say).
func tooLarge(w http.ResponseWriter, n int64) {
	size := "over the limit"
	if n >= 0 {
		size = strconv.FormatInt(n, 10) + " bytes"
	}
	refuse(w, fmt.Sprintf("Request Entity Too Large: %s, and the limit is %d bytes; send less (split a batch, or the content)",
		size, MaxRequestBytes), http.StatusRequestEntityTooLarge)
}

// refuse answers a request without reading its body, and closes the
// connection after the answer: otherwise the server would read up to
// 256 KiB of the body it refused, to reuse the connection, for as long as
// the client takes to send it (net/http drains a body its handler left).
func refuse(w http.ResponseWriter, msg string, code int) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, code)
	// The drain then fails at once.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// HTTP server timeouts: a connection must send its headers within
// readHeaderTimeout and its whole request within readTimeout; an answer
// (a call's event stream included) is cut after writeTimeout, and an idle
// keep-alive connection closed after idleTimeout.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 5 * time.Minute
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 64 << 10
)

// NewHTTPServer returns an http.Server for h with wikid's timeouts and
// limits; errorLog, if not nil, receives its errors.
func NewHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          errorLog,
	}
}

// Close ends the open sessions, so that long-lived event streams return
// and http.Server.Shutdown can finish, and stops the sweeping of idle
// sessions.
func (h *HTTPHandler) Close(ctx context.Context) {
	// Without an http.Server of its own, Shutdown only closes the sessions
	// and stops the sweeper; it fails only when ctx is done first.
	h.mcp.Shutdown(ctx)
}

// authorized compares the bearer token in constant time.
func (h *HTTPHandler) authorized(r *http.Request) bool {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(h.opts.Token)) == 1
}

// originAllowed accepts http(s) origins on localhost, 127.0.0.1 and [::1]
// at any port, and the configured ones.
func (h *HTTPHandler) originAllowed(origin string) bool {
	if h.origins[normalizeOrigin(origin)] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" || u.User != nil {
		return false
	}
	switch strings.ToLower(u.Hostname()) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

func normalizeOrigin(o string) string {
	return strings.TrimRight(strings.ToLower(strings.TrimSpace(o)), "/")
}
