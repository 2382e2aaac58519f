package mcpserver

import (
	"context"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/wikid/wikid/internal/wiki"
)

// subscriptions are the resources each session of wikid's own profile
// subscribed to, and the watch of the wiki's branch that runs while any
// session is open: a commit that changes a subscribed resource, made by
// any client, a command, a sync or git in the checkout, sends
// notifications/resources/updated to the sessions that subscribed to it;
// one that adds or removes notes sends notifications/resources/list_changed
// to every session.
type subscriptions struct {
	mu       sync.Mutex
	sessions map[string]map[string]bool // session id → subscribed URIs
	open     int                        // sessions open
	stop     func()                     // ends the watch; nil while none runs
}

// subscribeHooks registers the hooks that keep the subscriptions and run
// the watch.
func (s *Server) subscribeHooks(hooks *server.Hooks) {
	s.subs.sessions = map[string]map[string]bool{}
	hooks.AddOnRegisterSession(func(context.Context, server.ClientSession) { s.sessionOpened() })
	hooks.AddOnUnregisterSession(func(_ context.Context, sess server.ClientSession) { s.sessionClosed(sess.SessionID()) })
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if sess := server.ClientSessionFromContext(ctx); sess != nil {
			s.subscribe(sess.SessionID(), req.Params.URI, true)
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if sess := server.ClientSessionFromContext(ctx); sess != nil {
			s.subscribe(sess.SessionID(), req.Params.URI, false)
		}
	})
}

// subscribe records that a session subscribed to a URI, or unsubscribed.
func (s *Server) subscribe(session, uri string, on bool) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	uris := s.subs.sessions[session]
	switch {
	case on && uris == nil:
		s.subs.sessions[session] = map[string]bool{uri: true}
	case on:
		uris[uri] = true
	default:
		delete(uris, uri)
	}
}

// sessionOpened starts the watch with the first session.
func (s *Server) sessionOpened() {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	s.subs.open++
	if s.subs.stop == nil {
		s.subs.stop = s.w.Watch(s.moved)
	}
}

// sessionClosed forgets a session's subscriptions, and stops the watch
// with the last session.
func (s *Server) sessionClosed(id string) {
	s.subs.mu.Lock()
	delete(s.subs.sessions, id)
	s.subs.open--
	var stop func()
	if s.subs.open <= 0 {
		s.subs.open, stop, s.subs.stop = 0, s.subs.stop, nil
	}
	s.subs.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// moved tells the sessions of a move of the branch.
func (s *Server) moved(m wiki.HeadMove) {
	if len(m.Notes) == 0 {
		return
	}
	changed := make(map[string]bool, len(m.Notes))
	for _, n := range m.Notes {
		changed[n.Path] = true
	}
	type note struct{ session, uri string }
	var tell []note
	s.subs.mu.Lock()
	for session, uris := range s.subs.sessions {
		for uri := range uris {
			if affected(uri, changed) {
				tell = append(tell, note{session, uri})
			}
		}
	}
	s.subs.mu.Unlock()
	for _, t := range tell {
		err := s.mcp.SendNotificationToSpecificClient(t.session, mcp.MethodNotificationResourceUpdated, map[string]any{"uri": t.uri})
		if err != nil {
			s.log.Debug("resource updated notification", "session", t.session, "uri", t.uri, "err", err)
		}
	}
	if m.Added() {
		s.mcp.SendNotificationToAllClients(mcp.MethodNotificationResourcesListChanged, nil)
	}
}

// affected reports whether a commit that changed the notes of changed (by
// path) changes the resource at uri: a note or its history when the note
// changed, the lists (recent changes, activity, a tag) whenever a note
// did.
func affected(uri string, changed map[string]bool) bool {
	for _, prefix := range []string{noteURIPrefix, historyURIPrefix} {
		if strings.HasPrefix(uri, prefix) {
			p, err := uriPath(uri, prefix)
			if err != nil {
				return false
			}
			if base, ext := wiki.SplitNoteExtension(p); ext != "" {
				p = base
			}
			return changed[p]
		}
	}
	return uri == recentURI || strings.HasPrefix(uri, activityURIPrefix) || strings.HasPrefix(uri, tagURIPrefix)
}
