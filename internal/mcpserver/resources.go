package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// Resource URIs.
const (
	// noteURIPrefix starts the URI of a note: wiki://note/projects/alpha/plan,
	// with the path percent-encoded where URIs need it (a space is %20).
	noteURIPrefix = "wiki://note/"
	// recentURI is the list of recently changed notes.
	recentURI = "wiki://recent"
	// recentLimit is how many notes wiki://recent lists.
	recentLimit = 20
)

// addResources registers the note template and wiki://recent, when the
// groups that read notes are served.
func (s *Server) addResources() {
	if s.groupEnabled(tool.GroupNotes) {
		s.mcp.AddResourceTemplate(mcp.NewResourceTemplate(noteURIPrefix+"{+path}", "note",
			mcp.WithTemplateDescription("A note's markdown, whole, frontmatter included: wiki://note/ then the note path "+
				"without extension, e.g. wiki://note/projects/alpha/plan."),
			mcp.WithTemplateMIMEType("text/markdown"),
		), s.readNoteResource)
	}
	if s.groupEnabled(tool.GroupSearch) {
		s.mcp.AddResource(mcp.NewResource(recentURI, "recent changes",
			mcp.WithResourceDescription(fmt.Sprintf("The %d most recently changed notes, newest first.", recentLimit)),
			mcp.WithMIMEType("text/plain"),
		), s.readRecentResource)
	}
}

func (s *Server) readNoteResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	p, err := uriPath(req.Params.URI, noteURIPrefix)
	if err != nil {
		return nil, s.resourceError(ctx, req.Params.URI, err)
	}
	r, err := s.w.Read(ctx, wiki.ReadRequest{Path: p, MaxChars: int(s.w.Options().MaxNoteSize)})
	if err != nil {
		return nil, s.resourceError(ctx, req.Params.URI, err)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/markdown", Text: r.Content}}, nil
}

func (s *Server) readRecentResource(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
	res, err := s.w.Search(ctx, wiki.SearchParams{Sort: "modified", Limit: recentLimit})
	if err != nil {
		return nil, s.resourceError(ctx, req.Params.URI, err)
	}
	out := &tools.RecentOutput{Results: make([]tools.RecentNote, len(res.Results)), Total: res.Total}
	for i, h := range res.Results {
		out.Results[i] = tools.NewRecentNote(h)
	}
	return []mcp.ResourceContents{mcp.TextResourceContents{URI: recentURI, MIMEType: "text/plain", Text: s.prof.Words.Say(tools.RecentText(out, ""))}}, nil
}

// uriPath returns what follows prefix in uri, percent-decoded: a note
// path, say.
func uriPath(uri, prefix string) (string, error) {
	raw, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return "", fmt.Errorf("%w: %s, want %s then a value", errBadURI, uri, prefix)
	}
	p, err := url.PathUnescape(raw)
	if err != nil || p == "" {
		return "", fmt.Errorf("%w: %s, want %s then a value", errBadURI, uri, prefix)
	}
	return p, nil
}

// noteURI is the URI of a note.
func noteURI(notePath string) string { return noteURIPrefix + escapePath(notePath) }

// escapePath percent-encodes a path for a URI, keeping its slashes.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// resourceError is the error a resource read fails with: the contract
// error's text, or a generic one for internal errors (logged). A missing
// note, commit or other resource, and a URI that names none, answer the
// protocol's resource-not-found code; bad values in the URI, -32602.
func (s *Server) resourceError(ctx context.Context, uri string, err error) error {
	out := s.requestError(ctx, uri, err)
	switch {
	case errors.Is(err, errBadURI), wiki.CodeOf(err) == wiki.CodeNotFound:
		return resourceNotFound(ctx, out)
	case badArgument(err):
		return invalidParams(ctx, out)
	}
	return out
}

// promptError is the error a prompt or a completion fails with: as
// resourceError, but whatever its arguments name that is missing is a bad
// argument (-32602).
func (s *Server) promptError(ctx context.Context, what string, err error) error {
	out := s.requestError(ctx, what, err)
	if errors.Is(err, errMissingArgument) || wiki.CodeOf(err) == wiki.CodeNotFound || badArgument(err) {
		return invalidParams(ctx, out)
	}
	return out
}

// badArgument reports whether err is a contract error about a value the
// client gave.
func badArgument(err error) bool {
	switch wiki.CodeOf(err) {
	case wiki.CodeInvalidParams, wiki.CodeInvalidPath, wiki.CodeInvalidQuery, wiki.CodeAmbiguous:
		return true
	}
	return false
}

// requestError is the error's text as the client sees it: the contract
// error's code, message and hint, or a generic one for internal errors
// (logged).
func (s *Server) requestError(ctx context.Context, what string, err error) error {
	if errors.Is(err, errBadURI) || errors.Is(err, errMissingArgument) {
		return err
	}
	var e *wiki.Error
	if errors.As(err, &e) && e.Code != wiki.CodeInternal {
		msg := string(e.Code) + ": " + render.Sentence(s.prof.Words.Say(e.Message))
		if e.Hint != "" {
			msg += " Hint: " + render.Sentence(s.prof.Words.Say(e.Hint))
		}
		return errors.New(msg)
	}
	s.log.ErrorContext(ctx, "request failed", "what", what, "err", err)
	return fmt.Errorf("reading %s failed on the server", what)
}
