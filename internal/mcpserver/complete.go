package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/wiki"
)

// completer answers completion/complete for wikid's own profile: the
// arguments of its prompts and of its resource templates, by the
// argument's name.
type completer struct{ s *Server }

// CompletePromptArgument completes an argument of a prompt. A prompt the
// server does not serve, or an argument it does not have, is a bad
// parameter (-32602).
func (c completer) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	p, ok := c.s.mcp.ListPrompts()[prompt]
	if !ok {
		return nil, invalidParams(ctx, fmt.Errorf("%w %q: completion/complete names one of the prompts prompts/list shows", errUnknownPrompt, prompt))
	}
	if !slices.ContainsFunc(p.Prompt.Arguments, func(a mcp.PromptArgument) bool { return a.Name == arg.Name }) {
		return nil, invalidParams(ctx, fmt.Errorf("prompt %s has no argument %q; its arguments: %s", prompt, arg.Name, argumentNames(p.Prompt)))
	}
	return c.s.complete(ctx, arg.Name, arg.Value)
}

// CompleteResourceArgument completes a variable of a resource template. A
// URI that is none of the server's templates is a bad parameter (-32602).
func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	if !slices.ContainsFunc(templatePrefixes, func(p string) bool { return strings.HasPrefix(uri, p) }) {
		return nil, invalidParams(ctx, fmt.Errorf("%w %q: completion/complete names one of the templates resources/templates/list shows", errUnknownTemplate, uri))
	}
	name := arg.Name
	if strings.HasPrefix(uri, commitURIPrefix) {
		name = "rev"
	}
	return c.s.complete(ctx, name, arg.Value)
}

// templatePrefixes start the URI templates of wikid's own resources.
var templatePrefixes = []string{noteURIPrefix, historyURIPrefix, commitURIPrefix, activityURIPrefix, tagURIPrefix}

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
		return nil, s.promptError(ctx, "completion of "+name, err)
	}
	return &mcp.Completion{Values: c.Values, Total: c.Total, HasMore: c.Total > len(c.Values)}, nil
}
