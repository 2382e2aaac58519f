package mcpserver

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/wiki"
)

// completer answers completion/complete for wikid's own profile: the
// arguments of its prompts and of its resource templates, by the
// argument's name.
type completer struct{ s *Server }

// CompletePromptArgument completes an argument of a prompt.
func (c completer) CompletePromptArgument(ctx context.Context, _ string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	return c.s.complete(ctx, arg.Name, arg.Value)
}

// CompleteResourceArgument completes a variable of a resource template.
func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	name := arg.Name
	if strings.HasPrefix(uri, commitURIPrefix) {
		name = "rev"
	}
	return c.s.complete(ctx, name, arg.Value)
}

// complete returns the values that complete value for an argument named
// name: note paths, folders, tags, revisions or days; none for any other.
func (s *Server) complete(ctx context.Context, name, value string) (*mcp.Completion, error) {
	var (
		c   wiki.Completion
		err error
	)
	switch name {
	case "path":
		c, err = s.w.CompleteNotes(ctx, value, wiki.MaxCompletions)
	case "folder":
		c, err = s.w.CompleteFolders(ctx, value, wiki.MaxCompletions)
	case "tag":
		c, err = s.w.CompleteTags(ctx, value, wiki.MaxCompletions)
	case "rev":
		c, err = s.w.CompleteRevisions(ctx, value, wiki.MaxCompletions)
	case "since", "date":
		c, err = s.w.CompleteDates(ctx, value, wiki.MaxCompletions)
	default:
		return &mcp.Completion{Values: []string{}}, nil
	}
	if err != nil {
		return nil, s.resourceError(ctx, "completion of "+name, err)
	}
	return &mcp.Completion{Values: c.Values, Total: c.Total, HasMore: c.Total > len(c.Values)}, nil
}
