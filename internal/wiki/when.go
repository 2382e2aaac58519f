package wiki

import (
	"strings"
	"time"

	"github.com/wikid/wikid/grammar"
)

// ParseDate reads a date given to the wiki by any front end (a tool's
// since, a command's --until) as the query language reads one, in the
// wiki's time zone: YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or
// RFC 3339. It returns the first and the last instant the date covers, so
// that both "since a date" and "until a date" include all of it. An empty
// string gives zero times; a bad one an INVALID_PARAMS error that says
// which forms a date takes.
func (w *Wiki) ParseDate(s string) (first, last time.Time, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, time.Time{}, nil
	}
	from, to, err := grammar.Period(s, w.opts.Location)
	if err != nil {
		return time.Time{}, time.Time{}, Errorf(CodeInvalidParams, "%v", err)
	}
	return from, to.Add(-time.Nanosecond), nil
}
