package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The pause between two attempts to reach a new daemon starts at
// firstPause after an attempt that failed and doubles up to lastPause; it
// starts again from none once a daemon answered the client. Variables, so
// that a test goes faster.
var (
	firstPause = 50 * time.Millisecond
	lastPause  = 2 * time.Second
)

// waitLimit is how long a request of the client's waits for a daemon to
// answer it before the bridge answers it with an error: less than the
// 60 s a client usually waits.
const waitLimit = 50 * time.Second

// progressEvery is how often a request that waits for a daemon, and asked
// for progress, is told how the bridge fares.
var progressEvery = time.Second

// nextPause returns the pause after one of the given length.
func nextPause(pause time.Duration) time.Duration {
	if pause == 0 {
		return firstPause
	}
	return min(2*pause, lastPause)
}

// dialed is the outcome of an attempt to connect.
type dialed struct {
	conn *Conn
	err  error
}

// reconnect connects to a new daemon and replays the client's handshake on
// it, after pause, and again, pausing longer each time (nextPause), until
// it can. Meanwhile it takes the client's messages, to send them once a
// daemon is there (see wait). It returns the new connection, or nil and
// why when the client is gone or ctx is done.
func (b *Bridge) reconnect(ctx context.Context, lines <-chan piece, inDone <-chan error, pause time.Duration) (*Conn, error) {
	var last error
	for attempt := 1; ; attempt++ {
		if pause > 0 {
			timer := time.NewTimer(pause)
			_, gone, err := wait(b, ctx, lines, inDone, timer.C, attempt, last)
			timer.Stop()
			if gone {
				return nil, err
			}
		}
		ch := make(chan dialed, 1)
		go func() {
			c, err := b.Connect(ctx)
			ch <- dialed{c, err}
		}()
		d, gone, err := wait(b, ctx, lines, inDone, (<-chan dialed)(ch), attempt, last)
		if gone {
			go func() {
				if d := <-ch; d.conn != nil {
					d.conn.Close()
				}
			}()
			return nil, err
		}
		if d.err == nil {
			if d.err = b.replayHandshake(d.conn); d.err == nil {
				if attempt > 1 {
					b.logf("reached a new daemon after %d attempts", attempt)
				}
				return d.conn, nil
			}
			d.conn.Close()
		}
		last = d.err
		pause = nextPause(pause)
		b.logf("connect to the daemon: %v; trying again in %v", last, pause)
	}
}

// wait waits for until, while it keeps the client's messages to send to
// the next daemon, answers those that waited waitLimit with an error, and
// tells those that asked for progress that they wait. gone is true, with
// the error to end with, when the client is gone (its input ended and
// nothing of its waits for an answer, or its output failed), or ctx is
// done.
func wait[T any](b *Bridge, ctx context.Context, lines <-chan piece, inDone <-chan error, until <-chan T, attempt int, last error) (v T, gone bool, err error) {
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	if b.ended != nil {
		lines, inDone = nil, nil
	}
	for {
		if b.ended != nil && !b.waiting() {
			return v, true, *b.ended
		}
		select {
		case v = <-until:
			return v, false, nil
		case p := <-lines:
			if p.answer != nil {
				if err := b.write(p.answer); err != nil {
					return v, true, err
				}
				if p.end != nil {
					return v, true, p.end
				}
				continue
			}
			b.hold(newRequest(p.line))
		case err := <-inDone:
			b.ended = &err
			lines, inDone = nil, nil
		case <-tick.C:
			if err := b.tellWaiting(attempt, last); err != nil {
				return v, true, err
			}
		case <-ctx.Done():
			return v, true, nil
		}
	}
}

// hold keeps a message the client sent while no daemon was there, to send
// to the next one; a cancellation of a request that waits, or of a listen
// stream to open again, takes it away instead.
func (b *Bridge) hold(r request) {
	if r.method == "notifications/cancelled" {
		var m message
		if json.Unmarshal(r.line, &m) == nil && len(m.Params.RequestID) > 0 {
			if b.closeListen(m.Params.RequestID) {
				return
			}
			for i, w := range b.resend {
				if w.id == string(m.Params.RequestID) {
					b.resend = append(b.resend[:i], b.resend[i+1:]...)
					return
				}
			}
		}
	}
	b.resend = append(b.resend, r)
}

// waiting reports whether a request of the client's waits for a daemon.
func (b *Bridge) waiting() bool {
	for _, r := range b.resend {
		if r.id != "" && !r.own() {
			return true
		}
	}
	return false
}

// tellWaiting answers the requests that waited waitLimit for a daemon
// with an error, and sends the others that asked for progress a
// notification that they wait. It returns an error when the client's
// output fails.
func (b *Bridge) tellWaiting(attempt int, last error) error {
	why := ""
	if last != nil {
		why = fmt.Sprintf(": %v", last)
	}
	kept := b.resend[:0]
	for _, r := range b.resend {
		switch {
		case r.id == "" || r.own():
		case time.Since(r.since) >= waitLimit:
			if err := b.answerError(r, fmt.Sprintf("no wikid daemon answered this request within %v "+
				"(attempt %d to reach one%s): retry it; see the daemon's log", waitLimit, attempt, why)); err != nil {
				return err
			}
			continue
		case r.token != nil:
			r.progress++
			msg, _ := json.Marshal(map[string]any{
				"jsonrpc": "2.0", "method": "notifications/progress",
				"params": map[string]any{"progressToken": r.token, "progress": r.progress,
					"message": fmt.Sprintf("the wikid daemon went away; reaching a new one (attempt %d%s)", attempt, why)},
			})
			if err := b.write(append(msg, '\n')); err != nil {
				return err
			}
		}
		kept = append(kept, r)
	}
	b.resend = kept
	return nil
}
