package note

import (
	"strings"
	"testing"
	"time"
)

// newYork is a zone west of UTC, where a date read as UTC midnight falls on
// the day before.
func newYork(tb testing.TB) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		tb.Skipf("no zone data: %v", err)
	}
	return loc
}

func TestParseDate(t *testing.T) {
	ny := newYork(t)
	tests := []struct {
		in   string
		want time.Time // zero: not a date
	}{
		{"2024-06-01", time.Date(2024, 6, 1, 0, 0, 0, 0, ny)},
		{" 2024-06-01 ", time.Date(2024, 6, 1, 0, 0, 0, 0, ny)},
		{"2024-06-01T10:30", time.Date(2024, 6, 1, 10, 30, 0, 0, ny)},
		{"2024-06-01T10:30:15", time.Date(2024, 6, 1, 10, 30, 15, 0, ny)},
		{"2024-06-01 10:30", time.Date(2024, 6, 1, 10, 30, 0, 0, ny)},
		{"2024-06-01 10:30:15", time.Date(2024, 6, 1, 10, 30, 15, 0, ny)},
		{"2024-01-15", time.Date(2024, 1, 15, 0, 0, 0, 0, ny)}, // standard time, -05:00
		{"2024-06-01T10:30:00Z", time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC)},
		{"2024-06-01T10:30:00+02:00", time.Date(2024, 6, 1, 8, 30, 0, 0, time.UTC)},
		{"2024-06-01T10:30:00.5-07:00", time.Date(2024, 6, 1, 17, 30, 0, 5e8, time.UTC)},
		{"2024", time.Time{}},
		{"2024-06", time.Time{}},
		{"2024-6-1", time.Time{}},
		{"2024-02-30", time.Time{}},
		{"June 1, 2024", time.Time{}},
		{"", time.Time{}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := ParseDate(tc.in, ny)
			if ok != !tc.want.IsZero() || !got.Equal(tc.want) {
				t.Errorf("ParseDate(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
			}
		})
	}
}

func TestParseIn_Dates(t *testing.T) {
	ny := newYork(t)
	src := []byte("---\ncreated: 2024-06-01\nmodified: 2024-06-02T23:00:00Z\n---\nbody\n")
	n := ParseIn("a", src, ny)
	if want := time.Date(2024, 6, 1, 0, 0, 0, 0, ny); !n.Created.Equal(want) {
		t.Errorf("created %v, want %v", n.Created, want)
	}
	if want := time.Date(2024, 6, 2, 23, 0, 0, 0, time.UTC); !n.Modified.Equal(want) {
		t.Errorf("modified %v, want %v", n.Modified, want)
	}
	if got := Parse("a", src).Created; !got.Equal(time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("Parse: created %v, want UTC midnight", got)
	}
}

// FuzzParseDate checks that the zone changes only the dates that name none:
// a string is a date in every zone or in none, and its instant moves with
// the zone exactly when it has no offset of its own.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2024-06-01", "2024-06-01 10:30", "2024-06-01T10:30:15", "2024-06-01T10:30:00+02:00", "2024-06-01T10:30:00Z", "x"} {
		f.Add(s)
	}
	ny := newYork(f)
	f.Fuzz(func(t *testing.T, s string) {
		u, okU := ParseDate(s, time.UTC)
		n, okN := ParseDate(s, ny)
		if okU != okN {
			t.Fatalf("%q: a date in UTC (%v) but not in New York (%v), or the reverse", s, okU, okN)
		}
		if !okU {
			return
		}
		_, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
		hasZone := err == nil
		if hasZone != u.Equal(n) {
			t.Fatalf("%q: UTC %v, New York %v; offset written: %v", s, u, n, hasZone)
		}
		// A wall time that New York skips moves by an hour, never a day.
		if !hasZone && u.Format(time.DateOnly) != n.Format(time.DateOnly) {
			t.Fatalf("%q: days differ: %v and %v", s, u, n)
		}
	})
}
