package wikid

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Proposal resource URIs.
const (
	// proposalsURI is what became of the reading session's proposals.
	proposalsURI = "wiki://proposals"
	// proposalURIPrefix starts one proposal's outcome, by id.
	proposalURIPrefix = "wiki://proposal/"
)

// proposalResources tell a proposing session what the person decided on
// its proposals: accepted, partly accepted or rejected, note by note, by
// whom, when and with what comment. A subscriber is told when one
// changes.
func proposalResources() []tool.Resource {
	return []tool.Resource{
		{URI: proposalsURI, Name: "proposals", MIME: "text/plain", Group: tool.GroupNotes,
			Description: "What became of this session's proposals (its changes in propose mode): each one open, accepted, partly " +
				"accepted or rejected, its notes, and the person's decisions with their comments. Subscribe to be told of a decision.",
			Read: func(ctx context.Context, env *tool.Env, _ string) (string, error) {
				list, err := env.Wiki.SessionProposals(ctx, env.Caller)
				if err != nil {
					return "", err
				}
				return say(render.ProposalOutcomes(list)), nil
			}},
		{URI: proposalURIPrefix + "{id}", Template: true, Name: "proposal", MIME: "text/plain", Group: tool.GroupNotes,
			Description: "What became of one proposal: wiki://proposal/ then its id, as a proposed change's answer names it.",
			Read: func(ctx context.Context, env *tool.Env, uri string) (string, error) {
				id, err := uriPath(uri, proposalURIPrefix)
				if err != nil {
					return "", err
				}
				o, err := env.Wiki.ProposalOutcome(ctx, id)
				if err != nil {
					return "", err
				}
				return say(render.ProposalOutcomes([]wiki.ProposalOutcome{*o})), nil
			}},
	}
}

// proposalWatch returns what a subscription to a proposal resource
// watches; ok is false for another URI.
func proposalWatch(ctx context.Context, env *tool.Env, uri string) (w tool.Watch, ok bool, err error) {
	switch {
	case uri == proposalsURI:
		return tool.Watch{Kind: tool.WatchProposal, Key: wiki.ProposalIDPrefix(env.Caller.Client)}, true, nil
	case strings.HasPrefix(uri, proposalURIPrefix):
		id, err := uriPath(uri, proposalURIPrefix)
		if err != nil {
			return tool.Watch{}, true, err
		}
		if _, err := env.Wiki.ProposalOutcome(ctx, id); err != nil {
			return tool.Watch{}, true, err
		}
		return tool.Watch{Kind: tool.WatchProposal, Key: id}, true, nil
	}
	return tool.Watch{}, false, nil
}
