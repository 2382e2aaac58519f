package grammar

import (
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin on machines without a zone database
)

// TestParse_Dates checks the interval of every date form and comparison.
func TestParse_Dates(t *testing.T) {
	plus2 := time.FixedZone("+02", 2*3600)
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var open time.Time
	tests := []struct {
		input    string
		loc      *time.Location
		op       string
		from, to time.Time
	}{
		{"modified:2024", time.UTC, "=", utc("2024-01-01T00:00:00Z"), utc("2025-01-01T00:00:00Z")},
		{"modified:2024-06", time.UTC, "=", utc("2024-06-01T00:00:00Z"), utc("2024-07-01T00:00:00Z")},
		{"modified:2024-12", time.UTC, "=", utc("2024-12-01T00:00:00Z"), utc("2025-01-01T00:00:00Z")},
		{"modified:2024-06-01", time.UTC, "=", utc("2024-06-01T00:00:00Z"), utc("2024-06-02T00:00:00Z")},
		{"modified:2024-02-29", time.UTC, "=", utc("2024-02-29T00:00:00Z"), utc("2024-03-01T00:00:00Z")},
		{"modified:=2024", time.UTC, "=", utc("2024-01-01T00:00:00Z"), utc("2025-01-01T00:00:00Z")},
		{"modified:>2024-06", time.UTC, ">", utc("2024-07-01T00:00:00Z"), open},
		{"modified:>=2024-06", time.UTC, ">=", utc("2024-06-01T00:00:00Z"), open},
		{"modified:<2024-06", time.UTC, "<", open, utc("2024-06-01T00:00:00Z")},
		{"modified:<=2024", time.UTC, "<=", open, utc("2025-01-01T00:00:00Z")},
		{"modified:<=2024-06-30", time.UTC, "<=", open, utc("2024-07-01T00:00:00Z")},
		{"modified:2024-01..2024-03", time.UTC, "..", utc("2024-01-01T00:00:00Z"), utc("2024-04-01T00:00:00Z")},
		{"modified:2024-06-01..2024-06-01", time.UTC, "..", utc("2024-06-01T00:00:00Z"), utc("2024-06-02T00:00:00Z")},
		{"modified:2024..", time.UTC, "..", utc("2024-01-01T00:00:00Z"), open},
		{"modified:..2024-06", time.UTC, "..", open, utc("2024-07-01T00:00:00Z")},
		{`modified:"2024"`, time.UTC, "=", utc("2024-01-01T00:00:00Z"), utc("2025-01-01T00:00:00Z")},

		// RFC 3339: an instant, to the precision written, in its own zone.
		{"created:2024-06-01T10:00:00Z", time.UTC, "=", utc("2024-06-01T10:00:00Z"), utc("2024-06-01T10:00:01Z")},
		{"created:2024-06-01T10:00:00.5Z", time.UTC, "=", utc("2024-06-01T10:00:00.5Z"), utc("2024-06-01T10:00:00.6Z")},
		{"created:2024-06-01T10:00:00.123456789Z", time.UTC, "=", utc("2024-06-01T10:00:00.123456789Z"), utc("2024-06-01T10:00:00.12345679Z")},
		{"created:>2024-06-01T10:00:00Z", time.UTC, ">", utc("2024-06-01T10:00:01Z"), open},
		{"created:<2024-06-01T10:00:00+02:00", time.UTC, "<", open, utc("2024-06-01T08:00:00Z")},
		{"created:2024-06-01T10:00:00Z..2024-06-01T12:00:00Z", plus2, "..", utc("2024-06-01T10:00:00Z"), utc("2024-06-01T12:00:01Z")},

		// Dates without a zone are read in the location given to Parse.
		{"modified:2024-06-01", plus2, "=", utc("2024-05-31T22:00:00Z"), utc("2024-06-01T22:00:00Z")},
		{"modified:<2024", plus2, "<", open, utc("2023-12-31T22:00:00Z")},
		// The day that summer time starts has 23 hours.
		{"modified:2024-03-31", berlin, "=", utc("2024-03-30T23:00:00Z"), utc("2024-03-31T22:00:00Z")},
		{"modified:2024-03", berlin, "=", utc("2024-02-29T23:00:00Z"), utc("2024-03-31T22:00:00Z")},
	}
	for _, tt := range tests {
		t.Run(tt.input+" "+tt.loc.String(), func(t *testing.T) {
			q := mustParse(t, tt.input, tt.loc)
			term, ok := q.Root.(*Term)
			if !ok || term.Date == nil {
				t.Fatalf("root %v is not a date term", q.Root)
			}
			d := term.Date
			if d.Op != tt.op || !d.From.Equal(tt.from) || !d.To.Equal(tt.to) {
				t.Errorf("got %s [%s, %s), want %s [%s, %s)", d.Op, bound(d.From), bound(d.To), tt.op, bound(tt.from), bound(tt.to))
			}
			if term.Phrase || term.Prefix {
				t.Errorf("date term has Phrase %v, Prefix %v; want neither", term.Phrase, term.Prefix)
			}
		})
	}
}

// TestDateRange_Contains checks both ends of the half-open interval.
func TestDateRange_Contains(t *testing.T) {
	q := mustParse(t, "modified:2024-06", time.UTC)
	june := q.Root.(*Term).Date
	q = mustParse(t, "modified:>=2024-06", time.UTC)
	sinceJune := q.Root.(*Term).Date
	q = mustParse(t, "modified:<2024-06", time.UTC)
	beforeJune := q.Root.(*Term).Date
	tests := []struct {
		name string
		r    *DateRange
		at   time.Time
		want bool
	}{
		{"june: first instant", june, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), true},
		{"june: last instant", june, time.Date(2024, 6, 30, 23, 59, 59, 999999999, time.UTC), true},
		{"june: july", june, time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC), false},
		{"june: may", june, time.Date(2024, 5, 31, 23, 59, 59, 0, time.UTC), false},
		{"since june: far future", sinceJune, time.Date(9000, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"since june: may", sinceJune, time.Date(2024, 5, 31, 0, 0, 0, 0, time.UTC), false},
		{"before june: far past", beforeJune, time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"before june: june", beforeJune, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Contains(tt.at); got != tt.want {
				t.Errorf("Contains(%s) = %v, want %v", tt.at, got, tt.want)
			}
		})
	}
}
