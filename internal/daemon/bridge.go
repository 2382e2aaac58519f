package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
)

// lostCode is the JSON-RPC error code of a request the daemon did not
// answer because it went away (JSON-RPC's internal error).
const lostCode = -32603

// Bridge relays an MCP stream between a client (in, out: standard input and
// output) and a daemon. When the daemon goes away while the client is still
// there (it crashed, or was stopped or replaced), the bridge answers the
// changes it had asked for and not seen answered with an error saying so,
// connects again (connect starts a daemon when none runs), replays the
// client's initialize handshake, its resource subscriptions and its open
// subscriptions/listen streams, sends the other requests again, and goes
// on: the client keeps its session. It
// keeps trying, with a growing pause between attempts (see reconnect),
// for as long as the client is there: the requests that wait for a daemon
// are told so by progress notifications, and answered with an error after
// waitLimit. It returns when in ends and the daemon has answered, or when
// ctx is done.
type Bridge struct {
	// Connect returns a new connection to the daemon, starting one if
	// need be.
	Connect func(ctx context.Context) (*Conn, error)
	// Logf, if set, reports reconnections (to standard error).
	Logf func(format string, args ...any)

	out     *bufio.Writer
	outMu   sync.Mutex
	mu      sync.Mutex
	init    []byte             // the client's initialize request
	inited  []byte             // its notifications/initialized
	pending map[string]request // requests not yet answered, by id
	// readOnly holds the tools that change nothing, as tools/list
	// annotated them: a call to one is sent again after a reconnection.
	readOnly map[string]bool
	replay   string // id of the replayed initialize, whose answer is dropped
	// replayed is closed when the replayed initialize is answered; until
	// then the client's messages wait, so that none runs before the
	// daemon knows the client.
	replayed chan struct{}
	// answers is set when an answer reached the client since the last
	// connection.
	answers atomic.Bool
	// resend are the requests to send again once the handshake is
	// replayed, and those the client sent while no daemon was there.
	resend []request
	// ended holds the end of the client's input once a reconnection saw
	// it, for the next session: nil while the input goes on.
	ended *error
	// subs holds the client's resources/subscribe requests, by URI, to
	// subscribe again on a new daemon; their answers there are dropped.
	subs map[string][]byte
	// listens holds the client's open subscriptions/listen streams, by
	// request id, to open again on a new daemon (see listen.go).
	listens map[string]*listenStream
}

// resubscribeID starts the id of a subscription the bridge makes again
// on a new daemon.
const resubscribeID = "wikid-bridge-resubscribe-"

// message is what the bridge reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		// RequestID is the request a notifications/cancelled cancels.
		RequestID json.RawMessage `json:"requestId"`
		Meta      struct {
			ProgressToken json.RawMessage `json:"progressToken"`
			// SubscriptionID is the listen request a notification of
			// the stream is about.
			SubscriptionID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
	} `json:"params"`
}

// request is a message of the client's in flight, or waiting to be sent.
type request struct {
	line   []byte
	id     string // "" for a notification
	method string
	tool   string          // for tools/call
	token  json.RawMessage // the progress token the client asked for, if any
	since  time.Time       // when the client sent it
	// tries counts the daemons that went away with it in flight.
	tries int
	// progress is the value of the last progress notification the bridge
	// sent for it.
	progress float64
}

// newRequest reads a line of the client's.
func newRequest(line []byte) request {
	r := request{line: line, since: time.Now()}
	var m message
	if json.Unmarshal(line, &m) != nil {
		return r
	}
	r.method, r.tool = m.Method, m.Params.Name
	if m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
		r.id = string(m.ID)
	}
	if t := m.Params.Meta.ProgressToken; len(t) > 0 && string(t) != "null" {
		r.token = t
	}
	return r
}

// own reports whether the bridge made the request itself (a subscription
// made again on a new daemon).
func (r request) own() bool { return strings.HasPrefix(r.id, `"`+resubscribeID) }

// Run relays until in ends or ctx is done.
func (b *Bridge) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	b.out = bufio.NewWriter(out)
	b.pending = map[string]request{}
	b.readOnly = map[string]bool{}
	b.subs = map[string][]byte{}
	b.listens = map[string]*listenStream{}
	conn, err := b.Connect(ctx)
	if err != nil {
		return err
	}
	lines := make(chan piece)
	inDone := make(chan error, 1)
	go readPieces(ctx, in, lines, inDone)
	var pause time.Duration
	for {
		lost, err := b.session(ctx, conn, lines, inDone)
		conn.Close()
		if !lost || ctx.Err() != nil {
			return err
		}
		if err == nil {
			err = errors.New("it closed the connection")
		}
		// The requests written and not answered, and those that waited
		// for a replayed handshake the daemon never answered.
		b.resend = append(b.answerLost(), b.unsent()...)
		if b.answers.Swap(false) {
			pause = 0
		} else {
			pause = nextPause(pause)
		}
		b.logf("the daemon went away (%v); connecting to a new one", err)
		if conn, err = b.reconnect(ctx, lines, inDone, pause); conn == nil {
			return err
		}
		b.resend = append(append(b.resend, b.resubscriptions()...), b.relistens()...)
	}
}

// resubscriptions are the client's subscriptions, to make again on a new
// daemon under ids of the bridge's own.
func (b *Bridge) resubscriptions() []request {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines []request
	for _, line := range b.subs {
		var m map[string]json.RawMessage
		if json.Unmarshal(line, &m) != nil {
			continue
		}
		m["id"], _ = json.Marshal(fmt.Sprintf("%s%d", resubscribeID, len(lines)))
		again, err := json.Marshal(m)
		if err != nil {
			continue
		}
		lines = append(lines, newRequest(append(again, '\n')))
	}
	return lines
}

// session relays over one connection. lost is true when the daemon went
// away before the client's input ended.
func (b *Bridge) session(ctx context.Context, conn *Conn, lines <-chan piece, inDone <-chan error) (lost bool, err error) {
	// The gate is taken before the daemon's answers are read: its answer
	// to the replayed initialize may be there already.
	b.mu.Lock()
	gate := b.replayed
	b.mu.Unlock()
	fromDaemon := make(chan error, 1)
	go func() { fromDaemon <- b.copyAnswers(conn) }()
	if testHookRelaying != nil {
		testHookRelaying(b)
	}
	// Until the replayed handshake is answered, neither the client's
	// lines nor the end of its input are looked at: the requests waiting
	// to be sent again go first.
	src, done := lines, b.inputDone(inDone)
	var timeout <-chan time.Time
	if gate != nil {
		src, done, timeout = nil, nil, time.After(dialTimeout)
	} else if err := b.sendAgain(conn); err != nil {
		return true, <-fromDaemon
	}
	for {
		select {
		case <-gate:
			src, done, gate, timeout = lines, b.inputDone(inDone), nil, nil
			if err := b.sendAgain(conn); err != nil {
				return true, <-fromDaemon
			}
		case <-timeout:
			return true, errors.New("it did not answer the initialize request")
		case p := <-src:
			if p.answer != nil {
				if err := b.write(p.answer); err != nil {
					return false, err
				}
				if p.end != nil {
					// As when the client is done: the daemon answers what
					// is in flight.
					_ = conn.CloseWrite()
					<-fromDaemon
					return false, p.end
				}
				continue
			}
			b.noteRequest(newRequest(p.line))
			if _, err := conn.Write(p.line); err != nil {
				// The daemon is gone: the reader sees it too.
				return true, <-fromDaemon
			}
		case err := <-done:
			// The client is done: let the daemon answer what is in flight.
			_ = conn.CloseWrite()
			derr := <-fromDaemon
			if b.unanswered() && ctx.Err() == nil {
				// It went away instead: the next one answers.
				b.ended = &err
				if derr == nil {
					derr = errors.New("it closed the connection")
				}
				return true, derr
			}
			if err == nil {
				err = derr
			}
			return false, err
		case err := <-fromDaemon:
			if ctx.Err() != nil {
				return false, nil
			}
			if err == nil {
				err = errors.New("it closed the connection")
			}
			return true, err
		case <-ctx.Done():
			return false, nil
		}
	}
}

// sendAgain writes the requests waiting to be sent again, in order. One
// it writes is in flight (see answerLost); those after a failed write wait
// for the next daemon (see unsent).
func (b *Bridge) sendAgain(conn *Conn) error {
	for len(b.resend) > 0 {
		r := b.resend[0]
		b.resend = b.resend[1:]
		b.noteRequest(r)
		if _, err := conn.Write(r.line); err != nil {
			return err
		}
	}
	return nil
}

// inputDone is where a session learns that the client's input ended: the
// reader's channel, or, when a reconnection saw it end already, a channel
// that says so at once, once the requests waiting are sent.
func (b *Bridge) inputDone(inDone <-chan error) <-chan error {
	if b.ended == nil {
		return inDone
	}
	ch := make(chan error, 1)
	ch <- *b.ended
	return ch
}

// testHookRelaying, when not nil, is called by a session once it reads
// the daemon's answers.
var testHookRelaying func(*Bridge)

// piece is a line of the client's input to pass on, or the answer to a
// line longer than mcpserver.MaxRequestBytes: the bridge answers such a
// line itself, with its id, as the daemon would, and neither holds it nor
// passes it on (were the daemon to go away while it reads one, the rest
// of the line would reach the next one).
type piece struct {
	line   []byte
	answer []byte
	// end, with an answer, ends the session: the line showed no id, so
	// the client cannot be told which request failed.
	end error
}

// readPieces reads the client's input into pieces until it ends, or
// until a piece ends the session.
func readPieces(ctx context.Context, in io.Reader, out chan<- piece, done chan<- error) {
	r := bufio.NewReaderSize(in, 64<<10)
	send := func(p piece) bool {
		select {
		case out <- p:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for n := 1; ; n++ {
		line, long, err := mcpserver.ReadLine(r)
		var p piece
		switch {
		case long != nil:
			var ok bool
			if p.answer, ok = long.Answer(); !ok {
				p.end = fmt.Errorf("line %d of standard input is %d bytes, over the limit of %d, and shows no id to answer; "+
					"closing the session", n, long.Len(), mcpserver.MaxRequestBytes)
			}
		case len(line) > 0:
			if line[len(line)-1] != '\n' { // the last line, without its newline
				line = append(line, '\n')
			}
			p.line = line
		}
		if p.line != nil || p.answer != nil {
			if !send(p) || p.end != nil {
				return
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			done <- err
			return
		}
	}
}

// noteRequest remembers the client's handshake and the requests in flight.
func (b *Bridge) noteRequest(r request) {
	var m message
	if json.Unmarshal(r.line, &m) != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case m.Method == "initialize":
		b.init = r.line
	case m.Method == "notifications/initialized":
		b.inited = r.line
	case m.Method == "resources/subscribe" && m.Params.URI != "":
		b.subs[m.Params.URI] = r.line
	case m.Method == "resources/unsubscribe":
		delete(b.subs, m.Params.URI)
	case m.Method == "notifications/cancelled":
		// A cancelled request is not answered: it is in flight no more.
		delete(b.pending, string(m.Params.RequestID))
		delete(b.listens, sameID(m.Params.RequestID))
	case m.Method == listenMethod && r.id != "":
		// An open stream, not a request in flight: see listen.go.
		if b.listens[sameID(m.ID)] == nil {
			b.listens[sameID(m.ID)] = &listenStream{req: r}
		}
		return
	}
	if r.id != "" {
		b.pending[r.id] = r
	}
}

// unanswered reports whether a request of the client's is in flight.
func (b *Bridge) unanswered() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.pending {
		if !r.own() {
			return true
		}
	}
	return false
}

// copyAnswers copies the daemon's messages to the client, line by line,
// forgetting the requests they answer. It returns nil at the end of the
// stream.
func (b *Bridge) copyAnswers(conn *Conn) error {
	r := bufio.NewReaderSize(conn, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			if b.answered(line) {
				if werr := b.write(line); werr != nil {
					return werr
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// answered forgets the request a message answers, and reports whether
// the message goes to the client (the answer to a replayed initialize does
// not).
func (b *Bridge) answered(line []byte) bool {
	var m message
	if json.Unmarshal(line, &m) != nil {
		return true
	}
	if m.Method == ackMethod {
		return b.firstAck(m)
	}
	if m.Method != "" || len(m.ID) == 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	// The answer to a listen request ends its stream.
	delete(b.listens, sameID(m.ID))
	if b.replay != "" && string(m.ID) == b.replay {
		b.replay = ""
		close(b.replayed)
		b.replayed = nil
		return false
	}
	if strings.HasPrefix(string(m.ID), `"`+resubscribeID) {
		delete(b.pending, string(m.ID))
		return false
	}
	b.answers.Store(true)
	if req, ok := b.pending[string(m.ID)]; ok && req.method == "tools/list" {
		b.learnTools(line)
	}
	delete(b.pending, string(m.ID))
	return true
}

// learnTools records which tools of a tools/list answer are read-only.
func (b *Bridge) learnTools(line []byte) {
	var res struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				Annotations struct {
					ReadOnly bool `json:"readOnlyHint"`
				} `json:"annotations"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &res) != nil {
		return
	}
	for _, t := range res.Result.Tools {
		b.readOnly[t.Name] = t.Annotations.ReadOnly
	}
}

// retryable reports whether a request can be sent again without changing
// anything twice: every request but a call of a tool not known to be
// read-only.
func (b *Bridge) retryable(r request) bool {
	if r.method == "initialize" {
		return false // replayed anyway
	}
	return r.method != "tools/call" || b.readOnly[r.tool]
}

// maxTries bounds how many daemons may go away while a request that can
// be sent again is in flight: it may be what makes them go away, so the
// next one does not get it, and the client gets an error instead.
const maxTries = 3

// answerLost answers the requests in flight that cannot be sent again with
// an error (the daemon went away without answering), and returns the
// others, to send again, oldest first.
func (b *Bridge) answerLost() (retry []request) {
	b.mu.Lock()
	reqs := b.pending
	b.pending = map[string]request{}
	b.mu.Unlock()
	for _, r := range reqs {
		if r.own() {
			continue // made again from the client's subscriptions
		}
		r.tries++
		switch {
		case !b.retryable(r):
			_ = b.answerError(r, "the wikid daemon went away during this request and was "+
				"restarted: retry it; a change it asked for was made or not as a whole (read the note, or the activity log, to know)")
		case r.tries >= maxTries:
			_ = b.answerError(r, fmt.Sprintf("the wikid daemon went away %d times in a row during this request, "+
				"which may be what makes it go away: it is not sent again (see the daemon's log)", r.tries))
		default:
			retry = append(retry, r)
		}
	}
	sort.Slice(retry, func(i, j int) bool { return retry[i].since.Before(retry[j].since) })
	return retry
}

// answerError answers a request of the client's with an error of the
// bridge's, as the daemon would. It returns the error of the client's
// output.
func (b *Bridge) answerError(r request, text string) error {
	msg, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": json.RawMessage(r.id),
		"error": map[string]any{"code": lostCode, "message": text},
	})
	return b.write(append(msg, '\n'))
}

// unsent takes the requests still waiting to be sent again, but for the
// bridge's own subscriptions, which are made again from the client's, and
// the listen streams opened before, which are opened again (relistens).
func (b *Bridge) unsent() (reqs []request) {
	for _, r := range b.resend {
		if !r.own() && !b.listening(r) {
			reqs = append(reqs, r)
		}
	}
	b.resend = nil
	return reqs
}

// replayHandshake initializes a new connection as the client did the first
// time; the answer is dropped.
func (b *Bridge) replayHandshake(conn *Conn) error {
	b.mu.Lock()
	init, inited := b.init, b.inited
	if init != nil {
		var m message
		_ = json.Unmarshal(init, &m)
		b.replay = string(m.ID)
		b.replayed = make(chan struct{})
	}
	b.mu.Unlock()
	for _, line := range [][]byte{init, inited} {
		if line == nil {
			continue
		}
		if _, err := conn.Write(line); err != nil {
			return err
		}
	}
	return nil
}

func (b *Bridge) write(line []byte) error {
	b.outMu.Lock()
	defer b.outMu.Unlock()
	if _, err := b.out.Write(line); err != nil {
		return err
	}
	return b.out.Flush()
}

func (b *Bridge) logf(format string, args ...any) {
	if b.Logf != nil {
		b.Logf(format, args...)
	}
}
