// Package web serves the pages where people review what assistants
// changed: the changes timeline and each commit's page with the diff of
// every note. Pages are rendered on the server with html/template and read
// without JavaScript. The package reads and changes the wiki through
// wiki.Wiki only: its results carry everything a page shows (diffs as
// hunks, note bodies, commits' trailers, review marks), and the pages word
// the core's messages with words of their own.
package web

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wiki"
)

//go:embed templates/*.html
var templateFiles embed.FS

// Options configure the pages.
type Options struct {
	// Logger receives the failures of requests; default slog.Default().
	Logger *slog.Logger
	// SignIn requires a browser to sign in once, with a link from
	// SignInLink, as when the daemon's HTTP has a token.
	SignIn bool
	// AllowedOrigins are browser origins allowed to post besides the
	// pages' own and localhost ones.
	AllowedOrigins []string
	// ReadOnly hides review and undo and refuses their requests.
	ReadOnly bool
	// Reviewer is the person review marks, undos and restores are by (the
	// review: setting); the zero value is the person git names for the
	// repository, and without one they are refused.
	Reviewer wiki.Identity
	// Getenv reads the environment git's configuration is found with;
	// default os.Getenv.
	Getenv func(string) string
}

// Handler serves the pages of one wiki.
type Handler struct {
	w    *wiki.Wiki
	opts Options
	tmpl *template.Template
	mux  *http.ServeMux
	acc  *access
	// charts keeps the changes page's charts (see changesChart).
	charts chartMemo
}

// sessionKey is the context key of the request's session.
type sessionKey struct{}

// New returns the pages of w.
func New(w *wiki.Wiki, opts Options) *Handler {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	h := &Handler{w: w, opts: opts, mux: http.NewServeMux(), acc: newAccess(opts.SignIn, opts.AllowedOrigins)}
	h.tmpl = template.Must(template.New("").Funcs(template.FuncMap{
		"when":     h.whenAny,
		"query":    query,
		"name":     name,
		"title":    statusTitle,
		"sentence": sentence,
		"span":     h.span,
		"badge":    badge,
		"files":    fileCount,
		"contains": strings.Contains,
	}).ParseFS(templateFiles, "templates/*.html"))
	h.mux.HandleFunc("GET /{$}", h.changes)
	h.mux.HandleFunc("GET /commit/{sha}", h.commit)
	h.mux.HandleFunc("GET /note/{path...}", h.note)
	h.mux.HandleFunc("POST /note/{path...}", h.notePost)
	h.mux.HandleFunc("GET /file/{path...}", h.file)
	h.mux.HandleFunc("GET /browse/{path...}", h.browse)
	h.mux.HandleFunc("GET /search", h.search)
	h.mux.HandleFunc("POST /commit/{sha}/review", h.review)
	h.mux.HandleFunc("POST /review", h.reviewAll)
	h.mux.HandleFunc("POST /commit/{sha}/revert", h.revert)
	h.mux.HandleFunc("GET /proposals", h.proposals)
	h.mux.HandleFunc("GET /proposals/{id}", h.proposal)
	h.mux.HandleFunc("POST /proposals/{id}/decide", h.decideProposal)
	return h
}

// notePost routes the POSTs under /note/: .../restore.
func (h *Handler) notePost(w http.ResponseWriter, r *http.Request) {
	p, ok := strings.CutSuffix(r.PathValue("path"), "/restore")
	if !ok {
		h.fail(w, r, wiki.Errorf(wiki.CodeNotFound, "no such form"))
		return
	}
	r.SetPathValue("path", p)
	h.restore(w, r)
}

// maxForm bounds the body of a form.
const maxForm = 64 << 10

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	// Pages load nothing from elsewhere and run no script.
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: with no-referrer a browser sends
	// Origin: null on a form's POST, which the origin check refuses.
	hd.Set("Referrer-Policy", "same-origin")
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	}
	session, ok := h.guard(w, r)
	if !ok {
		return
	}
	h.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, session)))
}

// csrf is the CSRF token of the request's session, for its forms.
func (h *Handler) csrf(r *http.Request) string {
	s, _ := r.Context().Value(sessionKey{}).(string)
	return h.acc.csrf(s)
}

// refuse answers a request the access rules or the options refuse.
func (h *Handler) refuse(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = h.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Message": msg})
}

// whenAny formats a time, or a pointer to one, in the wiki's time zone.
func (h *Handler) whenAny(v any) string {
	var t time.Time
	switch v := v.(type) {
	case time.Time:
		t = v
	case *time.Time:
		if v == nil {
			return ""
		}
		t = *v
	}
	return t.In(h.w.Options().Location).Format("2006-01-02 15:04")
}

// name is the name of "Name <email>".
func name(author string) string {
	if i := strings.Index(author, " <"); i > 0 {
		return author[:i]
	}
	return author
}

// query returns the URL query of the filters with key set to value.
func query(filters map[string]string, key, value string) template.URL {
	v := url.Values{}
	for k, x := range filters {
		if x != "" && k != "cursor" {
			v.Set(k, x)
		}
	}
	if value != "" {
		v.Set(key, value)
	}
	if len(v) == 0 {
		return "?"
	}
	return template.URL("?" + v.Encode())
}

// render writes a page, or the failure to make it.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	var b strings.Builder
	if err := h.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		h.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(b.String()))
}

// fail answers a request that failed: a clear page with the error's code
// and hint for a contract error, a generic one (and a log line) otherwise.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	status, msg := failure(err)
	if status == http.StatusInternalServerError {
		h.opts.Logger.ErrorContext(r.Context(), "web page failed", "path", r.URL.Path, "err", err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = h.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Message": msg})
}

// sentence writes a message as a sentence: a capital first letter and a
// full stop.
func sentence(msg string) string {
	msg = strings.TrimRight(strings.TrimSpace(msg), ".")
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:] + "."
}

// statusTitle is the heading of an error page: what the status means to
// the person who asked.
func statusTitle(status int) string {
	switch status {
	case http.StatusNotFound:
		return "Not found"
	case http.StatusBadRequest:
		return "That request is not one the wiki can answer"
	case http.StatusConflict:
		return "Nothing was changed"
	case http.StatusInsufficientStorage:
		return "Nothing was changed: the disk is full"
	case http.StatusForbidden:
		return "Not allowed"
	}
	return "Something went wrong"
}

// explain words a contract error for a page: its message, then its hint.
func explain(e *wiki.Error) string {
	if e.Hint == "" {
		return words.Say(e.Message)
	}
	return words.Say(e.Message) + "; " + words.Say(e.Hint)
}

// failure returns the HTTP status and the message of the page for a
// request that failed with err.
func failure(err error) (status int, msg string) {
	var e *wiki.Error
	switch {
	case errors.As(err, &e) && e.Code == wiki.CodeNotFound:
		return http.StatusNotFound, words.Say(e.Message)
	case errors.As(err, &e) && (e.Code == wiki.CodeInvalidParams || e.Code == wiki.CodeInvalidQuery || e.Code == wiki.CodeAmbiguous):
		return http.StatusBadRequest, words.Say(e.Message)
	case errors.As(err, &e) && e.Code == wiki.CodeNoSpace:
		return http.StatusInsufficientStorage, explain(e)
	case errors.As(err, &e) && (e.Code == wiki.CodeLocalChanges || e.Code == wiki.CodeLocked ||
		e.Code == wiki.CodeOtherBranch || e.Code == wiki.CodeConflict):
		return http.StatusConflict, explain(e) // the checkout or the branch is busy: the person can act on it
	case errors.As(err, &e) && e.Code == wiki.CodeReadOnly:
		return http.StatusForbidden, explain(e)
	}
	return http.StatusInternalServerError, "the page could not be made; the wikid log has the details"
}
