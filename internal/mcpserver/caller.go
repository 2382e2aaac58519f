package mcpserver

import (
	"context"
	"strings"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/wikid/wikid/internal/wiki"
)

// authorDomain is the mail domain of the author identity made up for an MCP
// client: a client named "claude-code" commits as
// "claude-code <claude-code@mcp.wikid>".
const authorDomain = "mcp.wikid"

// unknownClient names a client that sent no clientInfo.
const unknownClient = "unknown-client"

// clientInfo returns the name and version the client declared: in the
// request's _meta for the stateless protocol (2026-07-28 and later), else
// at initialize, as the session recorded it.
func clientInfo(ctx context.Context) mcp.Implementation {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientInfo != nil {
		return *info.ClientInfo
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientInfo()
	}
	return mcp.Implementation{}
}

// caller returns who a call of the tool named toolName acts for; its
// commits name the tool in the Wiki-Tool trailer. Client is "name/version"
// from the client's clientInfo and always goes into the Wiki-Client trailer.
// The commit author is Options.Author when set, else the client itself:
// its name, with the email <slug>@mcp.wikid.
func (s *Server) caller(ctx context.Context, toolName string) wiki.Caller {
	info := clientInfo(ctx)
	name := cleanName(info.Name)
	if name == "" {
		name = unknownClient
	}
	client := name
	if v := cleanName(info.Version); v != "" {
		client += "/" + v
	}
	author := s.opts.Author
	if author == (wiki.Identity{}) {
		author = wiki.Identity{Name: name, Email: slug(name) + "@" + authorDomain}
	}
	c := wiki.Caller{Client: client, Author: author, Tool: toolName, Propose: s.opts.Propose}
	if sess := server.ClientSessionFromContext(ctx); sess != nil {
		c.Session = sess.SessionID()
	}
	return c
}

// cleanName makes a client-supplied string safe for a commit header: no
// control characters, no angle brackets, single spaces.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '<' || r == '>' {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// slug turns a client name into the local part of an email address:
// lowercase letters, digits, '.', '-' and '_'; runs of anything else become
// one '-'.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_'):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" {
		return "client"
	}
	return out
}
