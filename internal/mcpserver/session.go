package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// maxLine bounds one message of a stream session, which requestReader has
// already held to MaxRequestBytes.
const maxLine = MaxRequestBytes + 1

// callsPerSession bounds the requests one stream session runs at once; a
// client sending more waits for one to finish.
const callsPerSession = 8

// sessionSeq numbers stream sessions for their ids.
var sessionSeq atomic.Int64

// streamSession is one client on a byte stream (standard input and output,
// or a connection to the daemon). mcp-go's own stdio transport keeps its one
// session in a package variable, so a process could serve only one stream;
// this one is per stream, and many run side by side on one MCPServer.
type streamSession struct {
	id  string
	out io.Writer // whole messages only: a *lineWriter
	// notes carries notifications sent outside a request (mcp-go's
	// broadcasts); a request's own go through its requestSession.
	notes       chan mcp.JSONRPCNotification
	initialized atomic.Bool
	logLevel    atomic.Value // mcp.LoggingLevel
	info        atomic.Value // mcp.Implementation
	caps        atomic.Value // mcp.ClientCapabilities
	// inflight holds, by id, the requests being served: a cancelled
	// request is not answered.
	inflight sync.Map // canonical id → *streamCall
	// modern is set once the client sent a request of protocol 2026-07-28
	// or later: from then on it is told only what it opted in to.
	modern atomic.Bool
}

// Modern reports whether the session speaks protocol 2026-07-28 or later.
func (s *streamSession) Modern() bool { return s.modern.Load() }

// streamCall is a request being served on a stream.
type streamCall struct {
	cancelled atomic.Bool
	// cancel cancels the request's context: from the moment it is read,
	// before mcp-go knows of the request, so that a cancel that follows
	// it at once is not lost.
	cancel context.CancelFunc
}

var (
	_ server.SessionWithClientInfo = (*streamSession)(nil)
	_ server.SessionWithLogging    = (*streamSession)(nil)
	_ server.SessionWithClientInfo = (*requestSession)(nil)
	_ server.SessionWithLogging    = (*requestSession)(nil)
)

func (s *streamSession) SessionID() string { return s.id }
func (s *streamSession) Initialize() {
	s.logLevel.Store(mcp.LoggingLevelError)
	s.initialized.Store(true)
}
func (s *streamSession) Initialized() bool { return s.initialized.Load() }
func (s *streamSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	return s.notes
}
func (s *streamSession) SetLogLevel(l mcp.LoggingLevel) { s.logLevel.Store(l) }
func (s *streamSession) GetLogLevel() mcp.LoggingLevel {
	if l, ok := s.logLevel.Load().(mcp.LoggingLevel); ok {
		return l
	}
	return mcp.LoggingLevelError
}
func (s *streamSession) GetClientInfo() mcp.Implementation {
	v, _ := s.info.Load().(mcp.Implementation)
	return v
}
func (s *streamSession) SetClientInfo(v mcp.Implementation) { s.info.Store(v) }
func (s *streamSession) GetClientCapabilities() mcp.ClientCapabilities {
	v, _ := s.caps.Load().(mcp.ClientCapabilities)
	return v
}
func (s *streamSession) SetClientCapabilities(v mcp.ClientCapabilities) { s.caps.Store(v) }

// requestSession is the session as one request sees it: the stream's, but
// with a channel of its own for the notifications the request sends, so
// that they are all written before its result (progress, then the answer).
type requestSession struct {
	*streamSession
	notes chan mcp.JSONRPCNotification
}

func (r *requestSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	return r.notes
}

// write writes one message as a line.
func (s *streamSession) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.out.Write(append(b, '\n'))
	return err
}

// serveStream serves one client on in and out until in ends or ctx is
// done, then waits for the requests in flight.
func (s *Server) serveStream(ctx context.Context, in io.Reader, out *lineWriter) error {
	sess := &streamSession{
		id:    "stream-" + strconv.FormatInt(sessionSeq.Add(1), 10),
		out:   out,
		notes: make(chan mcp.JSONRPCNotification, 64),
	}
	if err := s.mcp.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("register session: %w", err)
	}
	defer s.mcp.UnregisterSession(ctx, sess.id)
	// The requests in flight when the input ends run to their end and are
	// answered; only ctx cancels them. A subscriptions/listen stream is
	// not one: it ends with the input, since nobody is left to tell.
	var calls sync.WaitGroup
	var streams []context.CancelFunc
	// changes counts the calls in flight that may change the wiki.
	var changes sync.WaitGroup
	stopNotes := make(chan struct{})
	notesDone := make(chan struct{})
	defer func() {
		calls.Wait()
		close(stopNotes)
		<-notesDone
	}()
	go func() {
		defer close(notesDone)
		for {
			select {
			case n := <-sess.notes:
				if err := sess.write(n); err != nil {
					s.log.Debug("write notification", "err", err)
				}
			case <-stopNotes:
				return
			}
		}
	}()
	// slots are the calls running; queued those read (see backlog).
	slots := make(chan struct{}, callsPerSession)
	queued := newBacklog()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		msg := json.RawMessage(append([]byte(nil), line...))
		head := readEnvelope(msg)
		if head.modern() {
			sess.modern.Store(true)
		}
		if head.Method == string(mcp.MethodPing) && sess.Modern() && len(head.ID) > 0 {
			// Removed in the session's protocol, with or without _meta.
			if err := sess.write(pingRemoved(head.ID)); err != nil {
				s.log.Debug("write response", "err", err)
			}
			continue
		}
		if head.Method == string(mcp.MethodNotificationCancelled) {
			sess.cancel(head.Params.RequestID)
		}
		if len(head.ID) == 0 || head.Method == "" {
			// A notification (or a response to a request wikid never
			// sends): in order, on the read loop.
			s.handle(ctx, sess, msg, nil, nil)
			continue
		}
		if !queued.admit(ctx, len(msg)) {
			return nil
		}
		callCtx, cancel := context.WithCancel(ctx)
		key, call := canonicalID(head.ID), &streamCall{cancel: cancel}
		sess.inflight.Store(key, call)
		if head.Method == string(mcp.MethodSubscriptionsListen) {
			streams = append(streams, cancel)
		}
		// What the call waits for is fixed as it comes: a change orphaned
		// after it does not hold it back (it may be one of its session's).
		var waits []chan struct{}
		if settles(head.Method) {
			waits = s.orphans.pending()
		}
		mutating := head.Method == "tools/call" && s.mutating(head.Params.Name)
		if mutating {
			changes.Add(1)
		}
		calls.Go(func() {
			defer cancel()
			defer sess.inflight.Delete(key)
			defer queued.release(len(msg))
			if mutating {
				defer changes.Done()
			}
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			case <-callCtx.Done():
				return // cancelled by the client while it waited, or the server stops
			}
			s.orphans.settle(callCtx, waits)
			s.handle(callCtx, sess, msg, head.ID, call)
		})
	}
	// The input ended: the client may be gone, and come back on another
	// session, whose requests wait for the changes still running here.
	s.orphans.adopt(&changes)
	for _, cancel := range streams {
		cancel()
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

// handle serves one message: a request of id, in flight as call, or a
// notification (id and call nil). A request's notifications are written
// before its response; a handler that panics answers INTERNAL_ERROR.
func (s *Server) handle(ctx context.Context, sess *streamSession, msg json.RawMessage, id json.RawMessage, call *streamCall) {
	req := &requestSession{streamSession: sess, notes: make(chan mcp.JSONRPCNotification, 16)}
	done := make(chan struct{})
	relayed := make(chan struct{})
	go func() {
		defer close(relayed)
		for {
			select {
			case n := <-req.notes:
				_ = sess.write(n)
			case <-done:
				for {
					select {
					case n := <-req.notes:
						_ = sess.write(n)
					default:
						return
					}
				}
			}
		}
	}()
	ctx, answer := withAnswerCode(ctx)
	resp := func() (resp mcp.JSONRPCMessage) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("panic in a request handler", "panic", r)
				if id != nil {
					resp = mcp.NewJSONRPCError(mcp.NewRequestId(rawID(id)), mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r), nil)
				}
			}
		}()
		return s.mcp.HandleMessage(s.mcp.WithContext(ctx, req), msg)
	}()
	close(done)
	<-relayed
	if call != nil && call.cancelled.Load() {
		// The client cancelled the request: the specification asks for no
		// response, which its client would no longer know.
		return
	}
	if resp != nil {
		if err := sess.write(recode(resp, answer)); err != nil {
			s.log.Debug("write response", "err", err)
		}
	}
}

// cancel cancels the request of id, which a notifications/cancelled
// names, if it is in flight.
func (s *streamSession) cancel(id json.RawMessage) {
	if len(id) == 0 {
		return
	}
	if c, ok := s.inflight.Load(canonicalID(id)); ok {
		c.(*streamCall).cancelled.Store(true)
		c.(*streamCall).cancel()
	}
}

// canonicalID is a JSON-RPC id as a key: 7, 7.0 and "7" differ, as the
// client wrote them, but not by their spacing.
func canonicalID(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return string(id)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// rawID decodes a JSON-RPC id for an error response.
func rawID(id json.RawMessage) any {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return nil
	}
	if f, ok := v.(float64); ok && f == float64(int64(f)) {
		return int64(f)
	}
	return v
}
