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
	srv     *Server
	calls   chan struct{} // a slot per request served
	bodies  *bodyBudget   // the bytes of request bodies held

	mu sync.Mutex
	// endpoints serve each profile, by path: HTTPPath for the server's
	// own, HTTPPath/NAME for every profile by name, made on first use.
	endpoints map[string]*server.StreamableHTTPServer
	sessions  map[string]session // live sessions, by id
	inflight  httpCalls
}

// session is a live HTTP session: when it was last used, and the
// endpoint that serves it.
type session struct {
	used time.Time
	ep   *server.StreamableHTTPServer
}

// HTTPHandler returns the HTTP endpoint of the server.
func (s *Server) HTTPHandler(opts HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{opts: opts, origins: map[string]bool{}, srv: s, calls: make(chan struct{}, MaxCalls),
		bodies:    newBodyBudget(),
		endpoints: map[string]*server.StreamableHTTPServer{}, sessions: map[string]session{}}
	for _, o := range opts.AllowedOrigins {
		h.origins[normalizeOrigin(o)] = true
	}
	h.endpoints[HTTPPath] = endpoint(s, HTTPPath)
	return h
}

// endpoint serves s over streamable HTTP at path.
func endpoint(s *Server, path string) *server.StreamableHTTPServer {
	return server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath(path),
		server.WithStreamableHTTPLogger(s.log.WithGroup("http")),
		// Sessions keep the clientInfo of initialize, which names the
		// author of each change; idle ones are dropped after a day, and
		// their client initializes again.
		server.WithStateful(true),
		server.WithSessionIdleTTL(sessionIdleTTL),
	)
}

// endpointAt returns the endpoint of a path: HTTPPath, or HTTPPath/NAME
// for a profile, served by a server with the options of h's own but that
// profile. It returns nil for any other path.
func (h *HTTPHandler) endpointAt(path string) *server.StreamableHTTPServer {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ep, ok := h.endpoints[path]; ok {
		return ep
	}
	name, ok := strings.CutPrefix(path, HTTPPath+"/")
	if _, known := h.srv.opts.Profiles[name]; !ok || !known {
		return nil
	}
	opts := h.srv.opts
	opts.Profile = name
	ep := endpoint(New(h.srv.w, opts), path)
	h.endpoints[path] = ep
	return ep
}

// ServeHTTP checks the path, the Origin and the token, in that order, then
// hands the request to the MCP transport.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ep := h.endpointAt(r.URL.Path)
	if ep == nil {
		refuse(w, "404 page not found: MCP is served at "+HTTPPath+", and each profile at "+HTTPPath+"/NAME ("+
			strings.Join(h.srv.opts.Profiles.Names(), ", ")+")", http.StatusNotFound)
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
		// to the limit and within the budget of bodies held at once, and
		// refuse a larger one before it is decoded.
		if r.ContentLength > MaxRequestBytes {
			tooLarge(w, r.ContentLength)
			return
		}
		body, release, err := h.bodies.readBody(w, r)
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			tooLarge(w, -1)
			return
		case r.Context().Err() != nil:
			return // the client went away while it waited
		case err != nil:
			http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
			return
		}
		defer release()
		msg := readEnvelope(body)
		if refusePing(w, r.Header, msg) {
			return
		}
		body = withProtocolMeta(r.Header, msg, body)
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		h.inflight.cancel(r, msg)
		var answered func()
		w, r, answered = h.inflight.track(w, r, msg)
		defer answered()
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
	ep.ServeHTTP(w, r)
	switch {
	case r.Method == http.MethodDelete:
		h.forget(id)
	case id != "":
		h.touch(id)
	case w.Header().Get(server.HeaderKeySessionID) != "":
		h.added(w.Header().Get(server.HeaderKeySessionID), ep)
	}
}

// touch records that a session was used.
func (h *HTTPHandler) touch(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ss, ok := h.sessions[id]; ok {
		ss.used = time.Now()
		h.sessions[id] = ss
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
func (h *HTTPHandler) added(id string, ep *server.StreamableHTTPServer) {
	h.mu.Lock()
	now := time.Now()
	h.sessions[id] = session{used: now, ep: ep}
	var evict []string
	var from []*server.StreamableHTTPServer
	for len(h.sessions) > MaxSessions {
		oldest, at := "", now
		for sid, ss := range h.sessions {
			if now.Sub(ss.used) > sessionIdleTTL {
				delete(h.sessions, sid)
				continue
			}
			if ss.used.Before(at) || oldest == "" {
				oldest, at = sid, ss.used
			}
		}
		if oldest == "" || len(h.sessions) <= MaxSessions {
			break
		}
		evict, from = append(evict, oldest), append(from, h.sessions[oldest].ep)
		delete(h.sessions, oldest)
	}
	h.mu.Unlock()
	for i, sid := range evict {
		req := httptest.NewRequest(http.MethodDelete, HTTPPath, nil)
		req.Header.Set(server.HeaderKeySessionID, sid)
		from[i].ServeHTTP(httptest.NewRecorder(), req)
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
	h.mu.Lock()
	eps := make([]*server.StreamableHTTPServer, 0, len(h.endpoints))
	for _, ep := range h.endpoints {
		eps = append(eps, ep)
	}
	h.mu.Unlock()
	for _, ep := range eps {
		ep.Shutdown(ctx)
	}
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
