package mcpserver

import (
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// BodyBudget bounds the bytes of request bodies the HTTP endpoint holds at
// once: a request takes its share before a byte of its body is read and
// gives it back when its call ends, and one that would go over waits for
// others to end. A call holds several copies of its body while it runs
// (mcp-go's, the decoded arguments, the note), so memory follows this
// bound, not the number of clients. Bodies of at most smallBodyBytes that
// say their length draw on a reserve of smallBodiesBytes that large ones
// cannot take, so that a small call never waits behind large ones.
const (
	BodyBudget       = 64 << 20
	smallBodyBytes   = 1 << 20
	smallBodiesBytes = 16 << 20
)

// bodyBudget holds the HTTP endpoint's request bodies within BodyBudget.
type bodyBudget struct {
	small, large *semaphore.Weighted
	// held counts the bytes of bodies read and not yet given back; peak is
	// the most it counted at once.
	held, peak atomic.Int64
}

func newBodyBudget() *bodyBudget {
	return &bodyBudget{
		small: semaphore.NewWeighted(smallBodiesBytes),
		large: semaphore.NewWeighted(BodyBudget - smallBodiesBytes),
	}
}

// readBody reads the body of r within the budget, and returns it and a
// function that gives its share back, to call once the request is served.
// A body of known length takes its length before it is read. One of
// unknown length (chunked, which MCP clients do not send) takes the most
// it may be, MaxRequestBytes, and gives back what it did not use once it
// is read: taking its bytes as they come would let bodies half read wait
// for each other. A request that waited for its share has readTimeout
// from then on to send its body. readBody returns the context's error
// when r's context ends while it waits, a *http.MaxBytesError for a body
// over MaxRequestBytes, or the error of the read.
func (b *bodyBudget) readBody(w http.ResponseWriter, r *http.Request) ([]byte, func(), error) {
	s := &share{b: b}
	body, err := s.read(w, r)
	if err != nil {
		s.release()
		return nil, nil, err
	}
	return body, s.release, nil
}

// share is what one request holds of a bodyBudget.
type share struct {
	b            *bodyBudget
	small, large int64 // bytes taken from each pool
	bytes        int64 // bytes read, counted in b.held
}

func (s *share) read(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	in := &counter{r: http.MaxBytesReader(w, r.Body, MaxRequestBytes), s: s}
	if n := r.ContentLength; n >= 0 {
		if err := s.take(w, r, n); err != nil {
			return nil, err
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(in, body); err != nil {
			return nil, fmt.Errorf("read %d bytes of body: %w", n, err)
		}
		return body, nil
	}
	if err := s.take(w, r, MaxRequestBytes); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("read the body: %w", err)
	}
	s.giveBack(0, MaxRequestBytes-int64(len(body)))
	return body, nil
}

// take takes n bytes from the small pool, for n up to smallBodyBytes, or
// from the large one. When it has to wait, the client's read deadline
// starts again once it has them.
func (s *share) take(w http.ResponseWriter, r *http.Request, n int64) error {
	pool, taken := s.b.large, &s.large
	if n <= smallBodyBytes {
		pool, taken = s.b.small, &s.small
	}
	if !pool.TryAcquire(n) {
		if err := pool.Acquire(r.Context(), n); err != nil {
			return fmt.Errorf("wait for %d bytes of the request budget: %w", n, err)
		}
		// Not supported by a server without deadlines, which needs none.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(readTimeout))
	}
	*taken += n
	return nil
}

// giveBack returns bytes of the share to each pool.
func (s *share) giveBack(small, large int64) {
	if small > 0 {
		s.small -= small
		s.b.small.Release(small)
	}
	if large > 0 {
		s.large -= large
		s.b.large.Release(large)
	}
}

// release gives the whole share back.
func (s *share) release() {
	s.giveBack(s.small, s.large)
	s.b.held.Add(-s.bytes)
	s.bytes = 0
}

// counter counts the bytes read through it in its share and its budget.
type counter struct {
	r io.Reader
	s *share
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.s.bytes += int64(n)
		held := c.s.b.held.Add(int64(n))
		for {
			peak := c.s.b.peak.Load()
			if held <= peak || c.s.b.peak.CompareAndSwap(peak, held) {
				break
			}
		}
	}
	return n, err
}
