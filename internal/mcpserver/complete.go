package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/tool"
)

// completer answers completion/complete with the profile's Complete: the
// arguments of its prompts and of its resource templates.
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
	return c.s.complete(ctx, "", arg.Name, arg.Value)
}

// CompleteResourceArgument completes a variable of a resource template. A
// URI that is none of the server's templates is a bad parameter (-32602).
func (c completer) CompleteResourceArgument(ctx context.Context, uri string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	if !slices.ContainsFunc(c.s.prof.Resources, func(r tool.Resource) bool {
		return r.Template && c.s.groupEnabled(r.Group) && strings.HasPrefix(uri, templatePrefix(r))
	}) {
		return nil, invalidParams(ctx, fmt.Errorf("%w %q: completion/complete names one of the templates resources/templates/list shows", errUnknownTemplate, uri))
	}
	return c.s.complete(ctx, uri, arg.Name, arg.Value)
}

// complete returns the profile's completion of an argument.
func (s *Server) complete(ctx context.Context, uri, name, value string) (*mcp.Completion, error) {
	c, err := s.prof.Complete(ctx, s.env(ctx, ""), uri, name, value)
	if err != nil {
		return nil, s.promptError(ctx, "completion of "+name, err)
	}
	values := c.Values
	if values == nil {
		values = []string{}
	}
	return &mcp.Completion{Values: values, Total: c.Total, HasMore: c.Total > len(c.Values)}, nil
}
