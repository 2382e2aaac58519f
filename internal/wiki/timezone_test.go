package wiki_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
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

func TestWiki_TimeZone(t *testing.T) {
	ctx := context.Background()
	loc := newYork(t)
	dir := seeded(t, map[string]string{
		"day.md":    "---\ncreated: 2024-06-01\nmodified: 2024-06-02 01:30\n---\nbody\n",
		"stamp.md":  "---\ncreated: 2024-06-01T23:30:00Z\n---\nbody\n",
		"nodate.md": "# No date\n",
	})
	w := openWiki(t, dir, func(o *wiki.Options) { o.Location = loc })

	t.Run("a zone-less frontmatter date is read in the wiki's zone", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "day", MetadataOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2024, 6, 1, 0, 0, 0, 0, loc); !sameTime(r.Created, want) {
			t.Errorf("created %v, want %v", r.Created, want)
		}
		if want := time.Date(2024, 6, 2, 1, 30, 0, 0, loc); !sameTime(r.Modified, want) {
			t.Errorf("modified %v, want %v", r.Modified, want)
		}
	})

	t.Run("a date with an offset keeps it", func(t *testing.T) {
		r, err := w.Read(ctx, wiki.ReadRequest{Path: "stamp", MetadataOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2024, 6, 1, 23, 30, 0, 0, time.UTC); !sameTime(r.Created, want) {
			t.Errorf("created %v, want %v", r.Created, want)
		}
	})

	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"created:2024-06-01", []string{"day", "stamp"}}, // 23:30Z is 19:30 in New York
		{"created:2024-05-31", nil},
		{"modified:2024-06-02", []string{"day"}}, // 01:30 read as UTC would be June 1 in New York
		{"created:<2024-06-01", nil},
	} {
		t.Run("search "+tc.query, func(t *testing.T) {
			res, err := w.Search(ctx, wiki.SearchParams{Query: tc.query, Sort: "title"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range res.Results {
				got = append(got, h.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s found %v, want %v", tc.query, got, tc.want)
			}
		})
	}
}

func TestWiki_DailyDate(t *testing.T) {
	loc := newYork(t)
	w := openWiki(t, seeded(t, map[string]string{"a.md": "a\n"}), func(o *wiki.Options) {
		o.Location = loc
		// 02:00 UTC on June 1 is still May 31 in New York.
		o.Now = func() time.Time { return time.Date(2024, 6, 1, 2, 0, 0, 0, time.UTC) }
	})
	for _, tc := range []struct{ in, want string }{
		{"", "2024-05-31"},
		{"2024-06-01", "2024-06-01"},
		{"2024-02-29", "2024-02-29"},
	} {
		if got, err := w.DailyDate(tc.in); err != nil || got != tc.want {
			t.Errorf("DailyDate(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"2024-13-01", "2023-02-29", "2024-6-1", " 2024-06-01", "2024-06-01T00:00", "2024-06-01T00:00:00Z", "2024-06", "today"} {
		if _, err := w.DailyDate(bad); wiki.CodeOf(err) != wiki.CodeInvalidParams {
			t.Errorf("DailyDate(%q): %v, want INVALID_PARAMS", bad, err)
		}
	}
}
