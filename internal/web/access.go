package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Access rules, the same as /mcp's: loopback by default; with a token, a
// browser signs in once, through a one-time link, and then carries an
// HttpOnly, SameSite=Strict session cookie. Every state-changing request is
// a POST with the session's CSRF token and an allowed Origin. A loopback
// connection must name a loopback Host (no DNS rebinding).

const (
	sessionCookie = "wikid_session"
	// codeTTL is how long a sign-in link works; it works once.
	codeTTL = 10 * time.Minute
	// sessionTTL is how long a session lasts without use.
	sessionTTL = 30 * 24 * time.Hour
)

// access holds the sign-in codes and sessions of a Handler.
type access struct {
	signIn  bool
	origins map[string]bool
	key     []byte

	mu       sync.Mutex
	codes    map[string]time.Time // one-time code → expiry
	sessions map[string]time.Time // session id → last use
}

func newAccess(signIn bool, origins []string) *access {
	a := &access{signIn: signIn, origins: map[string]bool{}, key: random(32), codes: map[string]time.Time{}, sessions: map[string]time.Time{}}
	for _, o := range origins {
		a.origins[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return a
}

func random(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// SignInLink returns a link that signs a browser in once, within ten
// minutes, given the pages' base URL (http://127.0.0.1:8765). Without a
// token to protect the pages, it is the base URL itself.
func (h *Handler) SignInLink(base string) string {
	base = strings.TrimRight(base, "/")
	if !h.acc.signIn {
		return base + "/"
	}
	code := hex.EncodeToString(random(24))
	h.acc.mu.Lock()
	now := time.Now()
	for c, exp := range h.acc.codes {
		if now.After(exp) {
			delete(h.acc.codes, c)
		}
	}
	h.acc.codes[code] = now.Add(codeTTL)
	h.acc.mu.Unlock()
	return base + "/signin?code=" + code
}

// session returns the request's live session id, "" when it has none.
func (a *access) session(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	last, ok := a.sessions[c.Value]
	if !ok || time.Since(last) > sessionTTL {
		delete(a.sessions, c.Value)
		return ""
	}
	a.sessions[c.Value] = time.Now()
	return c.Value
}

// start opens a session and sets its cookie.
func (a *access) start(w http.ResponseWriter, r *http.Request) string {
	id := hex.EncodeToString(random(32))
	a.mu.Lock()
	a.sessions[id] = time.Now()
	a.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil, MaxAge: int(sessionTTL / time.Second)})
	return id
}

// redeem uses a one-time code.
func (a *access) redeem(code string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.codes[code]
	delete(a.codes, code)
	return ok && time.Now().Before(exp)
}

// csrf is the CSRF token of a session.
func (a *access) csrf(session string) string {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte("csrf:" + session))
	return hex.EncodeToString(m.Sum(nil))
}

// validCSRF reports whether a form's token is its session's.
func (a *access) validCSRF(session, token string) bool {
	return session != "" && subtle.ConstantTimeCompare([]byte(a.csrf(session)), []byte(token)) == 1
}

// originAllowed reports whether a browser origin may post: the pages' own
// origin, a localhost one, or one allowed by the options.
func (a *access) originAllowed(r *http.Request, origin string) bool {
	o := strings.TrimRight(strings.ToLower(origin), "/")
	if a.origins[o] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return loopbackHost(u.Hostname())
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// loopbackConn reports whether the request came over a loopback
// connection.
func loopbackConn(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guard checks a request against the access rules and returns its
// session, or answers it and returns ok false.
func (h *Handler) guard(w http.ResponseWriter, r *http.Request) (session string, ok bool) {
	a := h.acc
	if loopbackConn(r) && !loopbackHost(hostOnly(r.Host)) {
		h.refuse(w, r, http.StatusForbidden, "a loopback connection must name a loopback host (127.0.0.1 or localhost)")
		return "", false
	}
	if r.URL.Path == "/signin" && r.Method == http.MethodGet {
		if !a.signIn || !a.redeem(r.URL.Query().Get("code")) {
			h.refuse(w, r, http.StatusUnauthorized, "this sign-in link is used up or expired: run wikid daemon status for a new one")
			return "", false
		}
		a.start(w, r)
		// The code leaves the address bar with the redirect.
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return "", false
	}
	session = a.session(r)
	if session == "" {
		if a.signIn {
			h.refuse(w, r, http.StatusUnauthorized, "sign in with the link that wikid daemon status prints")
			return "", false
		}
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			session = a.start(w, r)
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		origin := r.Header.Get("Origin")
		switch {
		case r.Method != http.MethodPost:
			h.refuse(w, r, http.StatusMethodNotAllowed, "pages change the wiki only through a form's POST")
			return "", false
		case origin == "" || !a.originAllowed(r, origin):
			h.refuse(w, r, http.StatusForbidden, "this request comes from another site, or says not where it comes from")
			return "", false
		case !a.validCSRF(session, r.PostFormValue("csrf")):
			h.refuse(w, r, http.StatusForbidden, "the form is stale or forged: reload the page and try again")
			return "", false
		}
	}
	return session, true
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}
