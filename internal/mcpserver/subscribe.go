package mcpserver

import (
	"context"
	"maps"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// subscriptions are the resource subscriptions of a profile with Watch, one
// mechanism for both protocol eras: a session of protocol 2025-11-25 or
// earlier subscribes with resources/subscribe, and is told of every note
// made or removed (resources/list_changed is not opt-in there); a client of
// 2026-07-28 opens a subscriptions/listen stream with the URIs it wants and
// whether it wants list_changed, and is told of nothing else. Either way
// the same code decides who is told of a commit, with the same precision,
// while a watch of the wiki's branch runs: a commit by any client, a
// command, a sync or git in the checkout.
type subscriptions struct {
	mu sync.Mutex
	// sessions are the sessions of the earlier protocols, by id; a session
	// that turns out to speak 2026-07-28 (over stdio) stays here but is
	// told only of what it subscribed to.
	sessions map[string]*subscriber
	// streams are the subscriptions/listen streams open.
	streams map[*subscriber]bool
	stop    func() // ends the watch; nil while none runs
	// stopProposals ends the watch of the proposals; nil while none runs.
	stopProposals func()
}

// subscriber is a session or a listen stream, and what it is told of.
type subscriber struct {
	// send delivers a notification; it must not block.
	send func(method string, params map[string]any) error
	// listChanged reports whether it is told of notes made or removed.
	listChanged func() bool
	// uris are the resources it subscribed to, by the URI it gave.
	uris map[string]tool.Watch
}

// subscribeHooks registers the hooks that keep the subscriptions of both
// eras.
func (s *Server) subscribeHooks(hooks *server.Hooks) {
	s.subs.sessions = map[string]*subscriber{}
	s.subs.streams = map[*subscriber]bool{}
	hooks.AddOnRegisterSession(func(_ context.Context, sess server.ClientSession) { s.sessionOpened(sess) })
	hooks.AddOnUnregisterSession(func(_ context.Context, sess server.ClientSession) { s.sessionClosed(sess.SessionID()) })
	hooks.AddBeforeSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest) {
		if _, err := s.prof.Watch(ctx, s.env(ctx, ""), req.Params.URI); err != nil {
			resourceNotFound(ctx, s.requestError(ctx, req.Params.URI, err))
		}
	})
	hooks.AddAfterSubscribe(func(ctx context.Context, _ any, req *mcp.SubscribeRequest, _ *mcp.EmptyResult) {
		if sess := server.ClientSessionFromContext(ctx); sess != nil {
			s.subscribe(ctx, sess.SessionID(), req.Params.URI, true)
		}
	})
	hooks.AddAfterUnsubscribe(func(ctx context.Context, _ any, req *mcp.UnsubscribeRequest, _ *mcp.EmptyResult) {
		if sess := server.ClientSessionFromContext(ctx); sess != nil {
			s.subscribe(ctx, sess.SessionID(), req.Params.URI, false)
		}
	})
	hooks.AddBeforeSubscriptionsListen(s.listen)
}

// subscribe records that a session of the earlier protocols subscribed to
// a URI, or unsubscribed. A URI that names no resource of the server was
// refused before, with resource-not-found.
func (s *Server) subscribe(ctx context.Context, session, uri string, on bool) {
	var w tool.Watch
	if on {
		var err error
		if w, err = s.prof.Watch(ctx, s.env(ctx, ""), uri); err != nil {
			return
		}
	}
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	sub := s.subs.sessions[session]
	switch {
	case sub == nil:
	case on:
		sub.uris[uri] = w
		s.startProposalWatch(w)
	default:
		delete(sub.uris, uri)
	}
}

// listen serves the start of a subscriptions/listen stream: it keeps the
// URIs that name resources of the server (mcp-go then confirms those
// alone) and records the stream until its request ends.
func (s *Server) listen(ctx context.Context, id any, req *mcp.SubscriptionsListenRequest) {
	sess := server.ClientSessionFromContext(ctx)
	if sess == nil {
		return
	}
	f := &req.Params.Notifications
	sub := &subscriber{uris: map[string]tool.Watch{}}
	kept := f.ResourceSubscriptions[:0:0]
	for _, uri := range f.ResourceSubscriptions {
		w, err := s.prof.Watch(ctx, s.env(ctx, ""), uri)
		if err != nil {
			s.log.Debug("subscription refused", "uri", uri, "err", err)
			continue
		}
		sub.uris[uri] = w
		kept = append(kept, uri)
	}
	f.ResourceSubscriptions = kept
	listChanged := f.ResourcesListChanged
	sub.listChanged = func() bool { return listChanged }
	ch := sess.NotificationChannel()
	sub.send = func(method string, params map[string]any) error {
		n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{Method: method,
			Params: mcp.NotificationParams{Meta: map[string]any{mcp.MetaKeySubscriptionID: id}, AdditionalFields: params}}}
		select {
		case ch <- n:
			return nil
		default:
			return server.ErrNotificationChannelBlocked
		}
	}
	if len(sub.uris) == 0 && !listChanged {
		return // mcp-go answers at once: nothing to listen for
	}
	s.subs.mu.Lock()
	s.subs.streams[sub] = true
	s.startWatch()
	for _, w := range sub.uris {
		s.startProposalWatch(w)
	}
	s.subs.mu.Unlock()
	go func() {
		<-ctx.Done()
		s.subs.mu.Lock()
		delete(s.subs.streams, sub)
		s.stopWatchIfIdle()
		s.subs.mu.Unlock()
	}()
}

// sessionOpened records a session of the earlier protocols, and starts the
// watch with the first one.
func (s *Server) sessionOpened(sess server.ClientSession) {
	id := sess.SessionID()
	sub := &subscriber{uris: map[string]tool.Watch{}}
	sub.send = func(method string, params map[string]any) error {
		return s.mcp.SendNotificationToSpecificClient(id, method, params)
	}
	sub.listChanged = func() bool {
		m, ok := sess.(interface{ Modern() bool })
		return !ok || !m.Modern()
	}
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	s.subs.sessions[id] = sub
	s.startWatch()
}

// sessionClosed forgets a session and its subscriptions, and stops the
// watch with the last subscriber.
func (s *Server) sessionClosed(id string) {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	delete(s.subs.sessions, id)
	s.stopWatchIfIdle()
}

// startWatch starts the watch of the branch if none runs; s.subs.mu is
// held.
func (s *Server) startWatch() {
	if s.subs.stop == nil {
		s.subs.stop = s.w.Watch(s.moved)
	}
}

// startProposalWatch starts the watch of the proposals, for a subscriber
// of a proposal's resource, if none runs; s.subs.mu is held.
func (s *Server) startProposalWatch(w tool.Watch) {
	if w.Kind == tool.WatchProposal && s.subs.stopProposals == nil {
		s.subs.stopProposals = s.w.WatchProposals(s.proposalsMoved)
	}
}

// stopWatchIfIdle stops the watch when nobody is left to tell; s.subs.mu
// is held. Stopping waits for nothing the watch holds.
func (s *Server) stopWatchIfIdle() {
	if len(s.subs.sessions) == 0 && len(s.subs.streams) == 0 && s.subs.stop != nil {
		stop := s.subs.stop
		s.subs.stop = nil
		go stop()
	}
	if len(s.subs.sessions) == 0 && len(s.subs.streams) == 0 && s.subs.stopProposals != nil {
		stop := s.subs.stopProposals
		s.subs.stopProposals = nil
		go stop()
	}
}

// moved tells the subscribers of a move of the branch.
func (s *Server) moved(m wiki.HeadMove) {
	if len(m.Notes) == 0 {
		return
	}
	s.subs.mu.Lock()
	subs := make([]*subscriber, 0, len(s.subs.sessions)+len(s.subs.streams))
	uris := make([]map[string]tool.Watch, 0, cap(subs))
	for _, sub := range s.subs.sessions {
		subs, uris = append(subs, sub), append(uris, maps.Clone(sub.uris))
	}
	for sub := range s.subs.streams {
		subs, uris = append(subs, sub), append(uris, maps.Clone(sub.uris))
	}
	s.subs.mu.Unlock()
	c := newChange(s, m)
	for i, sub := range subs {
		for uri, w := range uris[i] {
			if !c.affects(w) {
				continue
			}
			if err := sub.send(mcp.MethodNotificationResourceUpdated, map[string]any{"uri": uri}); err != nil {
				s.log.Debug("resource updated notification", "uri", uri, "err", err)
			}
		}
		if m.Added() && sub.listChanged() {
			if err := sub.send(mcp.MethodNotificationResourcesListChanged, nil); err != nil {
				s.log.Debug("list changed notification", "err", err)
			}
		}
	}
}
