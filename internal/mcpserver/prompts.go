package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/tool"
)

// addPrompts registers the profile's prompts whose tool groups are
// served, those that change notes only on a server that may.
func (s *Server) addPrompts() {
	for _, p := range s.prof.Prompts {
		if !all(p.Groups, s.groupEnabled) || p.Writes && s.opts.ReadOnly {
			continue
		}
		def := promptDefinition(p)
		s.mcp.AddPrompt(def, func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			for _, a := range p.Arguments {
				if a.Required && strings.TrimSpace(req.Params.Arguments[a.Name]) == "" {
					return nil, invalidParams(ctx, fmt.Errorf("%w: %s needs %s", errMissingArgument, p.Name, a.Name))
				}
			}
			msgs, err := p.Render(ctx, s.env(ctx, ""), req.Params.Arguments)
			if err != nil {
				return nil, s.promptError(ctx, "prompt "+p.Name, err)
			}
			out := make([]mcp.PromptMessage, len(msgs))
			for i, m := range msgs {
				out[i] = s.promptMessage(m)
			}
			return &mcp.GetPromptResult{Description: p.Description, Messages: out}, nil
		})
	}
}

// promptDefinition is a prompt as prompts/list shows it.
func promptDefinition(p tool.Prompt) mcp.Prompt {
	opts := []mcp.PromptOption{mcp.WithPromptTitle(p.Title), mcp.WithPromptDescription(p.Description)}
	for _, a := range p.Arguments {
		aopts := []mcp.ArgumentOption{mcp.ArgumentDescription(a.Description)}
		if a.Required {
			aopts = append(aopts, mcp.RequiredArgument())
		}
		opts = append(opts, mcp.WithArgument(a.Name, aopts...))
	}
	return mcp.NewPrompt(p.Name, opts...)
}

// promptMessage is a user message of text, or one that embeds a
// resource's text.
func (s *Server) promptMessage(m tool.Message) mcp.PromptMessage {
	if m.URI == "" {
		return mcp.PromptMessage{Role: mcp.RoleUser, Content: mcp.NewTextContent(m.Text)}
	}
	return mcp.PromptMessage{Role: mcp.RoleUser, Content: mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: m.URI, MIMEType: m.MIME, Text: m.Text})}
}

// argumentNames lists a prompt's arguments, for an error: "none" when it
// has none.
func argumentNames(p mcp.Prompt) string {
	if len(p.Arguments) == 0 {
		return "none"
	}
	names := make([]string, len(p.Arguments))
	for i, a := range p.Arguments {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// all reports whether ok holds for every one of xs.
func all[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}
