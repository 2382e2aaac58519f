package daemon

import (
	"encoding/json"
	"sort"
)

// A client on protocol 2026-07-28 subscribes with a subscriptions/listen
// request that stays open: the daemon acknowledges it with a
// notifications/subscriptions/acknowledged, sends the stream's
// notifications with the request's id in their _meta, and answers it only
// when the stream ends. Like the resources/subscribe of the earlier
// protocols, an open stream is made again on a new daemon under the
// client's id, after the replayed handshake, and not as a request in
// flight: no daemon's loss counts against it (maxTries), and the client,
// told once that its stream is open, is not told again.

// listenMethod opens a stream; ackMethod confirms it.
const (
	listenMethod = "subscriptions/listen"
	ackMethod    = "notifications/subscriptions/acknowledged"
)

// listenStream is an open subscriptions/listen stream of the client's.
type listenStream struct {
	req request
	// acked is set once the client was told that the stream is open.
	acked bool
}

// sameID returns a JSON-RPC id in one spelling, so that the id of a
// request and the same id in a notification's _meta compare equal.
func sameID(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// relistens are the client's open listen streams, oldest first, to open
// again on a new daemon.
func (b *Bridge) relistens() []request {
	b.mu.Lock()
	defer b.mu.Unlock()
	reqs := make([]request, 0, len(b.listens))
	for _, l := range b.listens {
		reqs = append(reqs, l.req)
	}
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].since.Before(reqs[j].since) })
	return reqs
}

// listening reports whether r opens a stream that the bridge opens again
// on the next daemon by itself.
func (b *Bridge) listening(r request) bool {
	if r.method != listenMethod || r.id == "" {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.listens[sameID(json.RawMessage(r.id))] != nil
}

// closeListen forgets the open stream of a cancellation the client sent
// while no daemon was there, and reports whether there was one: no daemon
// knows the stream, so the cancellation goes nowhere.
func (b *Bridge) closeListen(id json.RawMessage) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := sameID(id)
	if b.listens[key] == nil {
		return false
	}
	delete(b.listens, key)
	return true
}

// firstAck reports whether an acknowledgement goes to the client: the
// first of a stream does, and the daemons' acknowledgements of the stream
// opened again do not.
func (b *Bridge) firstAck(m message) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.listens[sameID(m.Params.Meta.SubscriptionID)]
	if l == nil {
		return true
	}
	if l.acked {
		return false
	}
	l.acked = true
	return true
}
