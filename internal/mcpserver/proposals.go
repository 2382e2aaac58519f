package mcpserver

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// tell puts in the answer of a proposing session's tool call what the
// person decided on its proposals since its last call, once: in the text,
// and in the structured content's warnings where the result has them
// (results that could not carry it there still have it in the text). The
// same decisions are at wiki://proposals.
func (s *Server) tell(ctx context.Context, c wiki.Caller, structured any, text string) string {
	news, err := s.w.ProposalNews(ctx, c)
	if err != nil {
		s.log.Debug("proposal news", "err", err)
		return text
	}
	lines := wiki.Told(news)
	if len(lines) == 0 {
		return text
	}
	if r, ok := structured.(interface{ Warn(string) }); ok {
		for _, l := range lines {
			r.Warn(l)
		}
	}
	return strings.Join(lines, "\n") + "\n\n" + text
}

// proposalsMoved tells the subscribers of the proposals whose refs moved.
func (s *Server) proposalsMoved(ids []string) {
	s.subs.mu.Lock()
	var subs []*subscriber
	var uris []string
	for _, group := range []func(func(*subscriber)){
		func(f func(*subscriber)) {
			for _, sub := range s.subs.sessions {
				f(sub)
			}
		},
		func(f func(*subscriber)) {
			for sub := range s.subs.streams {
				f(sub)
			}
		},
	} {
		group(func(sub *subscriber) {
			for uri, w := range sub.uris {
				if w.Kind != tool.WatchProposal {
					continue
				}
				for _, id := range ids {
					if strings.HasPrefix(id, w.Key) {
						subs, uris = append(subs, sub), append(uris, uri)
						break
					}
				}
			}
		})
	}
	s.subs.mu.Unlock()
	for i, sub := range subs {
		if err := sub.send(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uris[i]}); err != nil {
			s.log.Debug("resource updated notification", "uri", uris[i], "err", err)
		}
	}
}
