package semantic

import (
	"sync"
	"time"
)

// rateWindow is how far back the embedding rate looks.
const rateWindow = time.Minute

// meter measures how fast the model embeds: the batches of the last
// minute, each with when it started and ended and how many chunks it
// embedded.
type meter struct {
	mu      sync.Mutex
	batches []batchTime
}

type batchTime struct {
	start, end time.Time
	n          int
}

// add records a batch of n chunks embedded from start to end.
func (m *meter) add(start, end time.Time, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.batches = append(m.batches, batchTime{start, end, n})
	m.trim(end)
}

// trim drops the batches that ended before the window. The caller holds
// mu.
func (m *meter) trim(now time.Time) {
	i := 0
	for i < len(m.batches) && now.Sub(m.batches[i].end) > rateWindow {
		i++
	}
	m.batches = m.batches[i:]
}

// rate returns the chunks a second embedded over the last minute: the
// chunks of the batches that ended in it, over the time from the earliest
// start among them (within the window) to now; 0 without any.
func (m *meter) rate(now time.Time) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.trim(now)
	if len(m.batches) == 0 {
		return 0
	}
	from, n := now, 0
	for _, b := range m.batches {
		n += b.n
		if b.start.Before(from) {
			from = b.start
		}
	}
	if w := now.Add(-rateWindow); from.Before(w) {
		from = w
	}
	secs := now.Sub(from).Seconds()
	if secs <= 0 {
		return 0
	}
	return float64(n) / secs
}
