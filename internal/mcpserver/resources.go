package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// addResources registers the profile's resources and resource templates
// whose tool groups are served.
func (s *Server) addResources() {
	for _, r := range s.prof.Resources {
		if !s.groupEnabled(r.Group) {
			continue
		}
		read := func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			t, err := r.Read(ctx, s.env(ctx, ""), req.Params.URI)
			if err != nil {
				return nil, s.resourceError(ctx, req.Params.URI, err)
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: r.MIME, Text: t}}, nil
		}
		if r.Template {
			s.mcp.AddResourceTemplate(mcp.NewResourceTemplate(r.URI, r.Name,
				mcp.WithTemplateDescription(r.Description), mcp.WithTemplateMIMEType(r.MIME)), read)
			continue
		}
		s.mcp.AddResource(mcp.NewResource(r.URI, r.Name,
			mcp.WithResourceDescription(r.Description), mcp.WithMIMEType(r.MIME)), read)
	}
}

// templatePrefix is what every URI of a template starts with: the
// template up to its first variable.
func templatePrefix(r tool.Resource) string {
	if i := strings.IndexByte(r.URI, '{'); i >= 0 {
		return r.URI[:i]
	}
	return r.URI
}

// resourceError is the error a resource read fails with: the contract
// error's text, or a generic one for internal errors (logged). A missing
// note, commit or other resource, and a URI that names none, answer the
// protocol's resource-not-found code; bad values in the URI, -32602.
func (s *Server) resourceError(ctx context.Context, uri string, err error) error {
	out := s.requestError(ctx, uri, err)
	switch {
	case errors.Is(err, tool.ErrBadURI), wiki.CodeOf(err) == wiki.CodeNotFound:
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
	if errors.Is(err, tool.ErrBadURI) || errors.Is(err, errMissingArgument) {
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
