package grammar

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Years outside this span are rejected, which also keeps every bound of a
// DateRange away from the zero time that means "open".
const (
	minYear = 1000
	maxYear = 9999
)

// dateForms names the forms of a date, for errors.
const dateForms = "YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339"

// comparisons in the order they must be tried: ">=" before ">".
var comparisons = []string{">=", "<=", ">", "<", "="}

// parseDateRange reads the value of a created or modified term, which starts
// at column col, into a half-open interval in loc:
//
//	2024-06         [2024-06-01, 2024-07-01)
//	>2024-06        [2024-07-01, open)
//	>=2024-06       [2024-06-01, open)
//	<2024-06        [open, 2024-06-01)
//	<=2024          [open, 2025-01-01)
//	2024-01..2024-03 [2024-01-01, 2024-04-01)
//	2024..          [2024-01-01, open)
//	..2024-06       [open, 2024-07-01)
func parseDateRange(field, expr string, col int, loc *time.Location) (*DateRange, error) {
	for _, op := range comparisons {
		if !strings.HasPrefix(expr, op) {
			continue
		}
		from, to, err := period(field, expr[len(op):], col+len(op), loc)
		if err != nil {
			return nil, err
		}
		switch op {
		case ">":
			return &DateRange{From: to, Op: op}, nil
		case ">=":
			return &DateRange{From: from, Op: op}, nil
		case "<":
			return &DateRange{To: from, Op: op}, nil
		case "<=":
			return &DateRange{To: to, Op: op}, nil
		default:
			return &DateRange{From: from, To: to, Op: op}, nil
		}
	}
	start, end, isRange := strings.Cut(expr, "..")
	if !isRange {
		from, to, err := period(field, expr, col, loc)
		if err != nil {
			return nil, err
		}
		return &DateRange{From: from, To: to, Op: "="}, nil
	}
	if start == "" && end == "" {
		return nil, errorAt(col, "date range \"..\" for %s at column %d needs a start, an end or both, as in 2024-01..2024-03", field, col)
	}
	r := &DateRange{Op: ".."}
	if start != "" {
		from, _, err := period(field, start, col, loc)
		if err != nil {
			return nil, err
		}
		r.From = from
	}
	if end != "" {
		_, to, err := period(field, end, col+len(start)+2, loc)
		if err != nil {
			return nil, err
		}
		r.To = to
	}
	if start != "" && end != "" && !r.From.Before(r.To) {
		return nil, errorAt(col, "empty date range %q for %s at column %d: the start is after the end", expr, field, col)
	}
	return r, nil
}

// Period returns the interval [from, to) that a date covers: a whole year
// (YYYY), month (YYYY-MM) or day (YYYY-MM-DD) in loc, a minute or a second
// in loc (YYYY-MM-DDTHH:MM[:SS]), or an RFC 3339 instant to the precision
// written. It is the one reading of a date for every input: queries, tool
// arguments and command-line flags.
func Period(date string, loc *time.Location) (from, to time.Time, err error) {
	from, to, err = period("", date, 1, loc)
	var e *Error
	if errors.As(err, &e) {
		return from, to, errors.New(e.Msg) // a column means nothing outside a query
	}
	return from, to, err
}

// period returns the interval [from, to) that a date covers: a whole year,
// month or day in loc, a minute or a second in loc, or one RFC 3339 instant
// to the precision written.
// The date is the value of field at column col, which errors name unless
// field is ""; a bad date is an *Error.
func period(field, date string, col int, loc *time.Location) (from, to time.Time, err error) {
	where := ""
	if field != "" {
		where = fmt.Sprintf(" for %s at column %d", field, col)
	}
	bad := func() (time.Time, time.Time, error) {
		if date == "" {
			return time.Time{}, time.Time{}, errorAt(col, "missing date%s: expected %s", where, dateForms)
		}
		return time.Time{}, time.Time{}, errorAt(col, "bad date %q%s: expected %s", date, where, dateForms)
	}
	outOfRange := func() (time.Time, time.Time, error) {
		return time.Time{}, time.Time{}, errorAt(col, "date %q%s is out of range: years run from %d to %d", date, where, minYear, maxYear)
	}
	switch {
	case isDate(date, "dddd"):
		y := atoi(date[0:4])
		if y < minYear {
			return outOfRange()
		}
		return time.Date(y, 1, 1, 0, 0, 0, 0, loc), time.Date(y+1, 1, 1, 0, 0, 0, 0, loc), nil
	case isDate(date, "dddd-dd"):
		y, m := atoi(date[0:4]), atoi(date[5:7])
		if m < 1 || m > 12 {
			return bad()
		}
		if y < minYear {
			return outOfRange()
		}
		return time.Date(y, time.Month(m), 1, 0, 0, 0, 0, loc), time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, loc), nil
	case isDate(date, "dddd-dd-dd"):
		y, m, d := atoi(date[0:4]), atoi(date[5:7]), atoi(date[8:10])
		from := time.Date(y, time.Month(m), d, 0, 0, 0, 0, loc)
		if m < 1 || m > 12 || d < 1 || from.Day() != d {
			return bad()
		}
		if y < minYear {
			return outOfRange()
		}
		return from, time.Date(y, time.Month(m), d+1, 0, 0, 0, 0, loc), nil
	case isDate(date, "dddd-dd-ddTdd:dd"), isDate(date, "dddd-dd-ddTdd:dd:dd"):
		layout, step := "2006-01-02T15:04", time.Minute
		if len(date) > len(layout) {
			layout, step = "2006-01-02T15:04:05", time.Second
		}
		t, perr := time.ParseInLocation(layout, date, loc)
		if perr != nil {
			return bad()
		}
		if t.Year() < minYear {
			return outOfRange()
		}
		return t, t.Add(step), nil
	}
	t, perr := time.Parse(time.RFC3339Nano, date)
	if perr != nil {
		return bad()
	}
	if t.Year() < minYear {
		return outOfRange()
	}
	return t.In(loc), t.Add(precision(date)).In(loc), nil
}

// isDate reports whether s has the shape of layout, where 'd' is an ASCII
// digit and any other byte stands for itself.
func isDate(s, layout string) bool {
	if len(s) != len(layout) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if layout[i] == 'd' {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		} else if s[i] != layout[i] {
			return false
		}
	}
	return true
}

// atoi converts a string of ASCII digits.
func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// precision returns the smallest step an RFC 3339 timestamp can express:
// a second, or a unit of its last fractional digit.
func precision(stamp string) time.Duration {
	dot := strings.IndexByte(stamp, '.')
	if dot < 0 {
		return time.Second
	}
	digits := 0
	for i := dot + 1; i < len(stamp) && stamp[i] >= '0' && stamp[i] <= '9'; i++ {
		digits++
	}
	p := time.Second
	for ; digits > 0 && p > time.Nanosecond; digits-- {
		p /= 10
	}
	return p
}
