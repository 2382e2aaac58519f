package note

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wikierr"
)

func fmDate(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, ok := ParseDate(s, time.UTC)
	if !ok {
		tb.Fatalf("ParseDate(%q) failed", s)
	}
	return t
}

func TestParseFrontmatter_Shapes(t *testing.T) {
	// src is the frontmatter block followed by "\x00" and the body: the
	// expected End is where the marker is.
	tests := []struct {
		name string
		src  string
		want *Frontmatter // nil: no frontmatter
	}{
		{name: "none", src: "# Title\n\nText.\n"},
		{name: "empty file", src: ""},
		{name: "not at the top", src: "\n---\ntitle: x\n---\n"},
		{name: "no closing line", src: "---\ntitle: x\n\nText.\n"},
		{name: "opening line only", src: "---"},
		{name: "opening line with text", src: "--- x\ntitle: x\n---\n"},
		{
			name: "empty block",
			src:  "---\n---\n\x00body\n",
			want: &Frontmatter{Start: 0, Properties: map[string]any{}},
		},
		{
			name: "comments only",
			src:  "---\n# nothing here\n\n---\n\x00",
			want: &Frontmatter{Start: 0, Properties: map[string]any{}},
		},
		{
			name: "closing line at EOF",
			src:  "---\ntitle: T\n---\x00",
			want: &Frontmatter{Properties: map[string]any{"title": "T"}, Keys: []string{"title"}, Title: "T"},
		},
		{
			name: "CRLF closing line at EOF",
			src:  "---\r\ntitle: T\r\n---\r\x00",
			want: &Frontmatter{Properties: map[string]any{"title": "T"}, Keys: []string{"title"}, Title: "T"},
		},
		{
			name: "dots close, trailing spaces",
			src:  "--- \t\ntitle: T\n...  \n\x00body",
			want: &Frontmatter{Properties: map[string]any{"title": "T"}, Keys: []string{"title"}, Title: "T"},
		},
		{
			name: "CRLF",
			src:  "---\r\ntitle: T\r\ntags: [a, b]\r\n---\r\n\x00body\r\n",
			want: &Frontmatter{
				Properties: map[string]any{"title": "T", "tags": []any{"a", "b"}},
				Keys:       []string{"title", "tags"}, Title: "T", Tags: []string{"a", "b"},
			},
		},
		{
			name: "byte order mark",
			src:  "\xEF\xBB\xBF---\ntitle: T\n---\n\x00",
			want: &Frontmatter{Start: 3, Properties: map[string]any{"title": "T"}, Keys: []string{"title"}, Title: "T"},
		},
		{
			name: "comments, folded and literal scalars",
			src: "---\n# about\ntitle: \"Quoted: title\" # trailing\n" +
				"summary: >\n  folded\n  text\n\nnotes: |\n  line one\n  # not a comment\n# a comment\n---\n\x00body",
			want: &Frontmatter{
				Properties: map[string]any{
					"title":   "Quoted: title",
					"summary": "folded text\n",
					"notes":   "line one\n# not a comment\n",
				},
				Keys:  []string{"title", "summary", "notes"},
				Title: "Quoted: title",
			},
		},
		{
			name: "quoted keys, nested maps, block and flow lists",
			src: "---\n\"date created\": 2024-06-01\n'my key': v\nproject:\n  name: wikid\n  owners: [ann, bob]\n" +
				"list:\n  - 1\n  - two\n  - {k: v}\n---\n\x00body",
			want: &Frontmatter{
				Properties: map[string]any{
					"date created": "2024-06-01",
					"my key":       "v",
					"project":      map[string]any{"name": "wikid", "owners": []any{"ann", "bob"}},
					"list":         []any{1, "two", map[string]any{"k": "v"}},
				},
				Keys:    []string{"date created", "my key", "project", "list"},
				Created: fmDate(t, "2024-06-01"),
			},
		},
		{
			name: "scalar types",
			src: "---\nint: 42\nhex: 0x1F\nfloat: 1.5\nbool: true\nyes: yes\nnull: ~\nempty:\n" +
				"when: 2024-06-01T10:30:00Z\ninf: .inf\nbig: 99999999999999999999\nstr: '42'\n---\n\x00body",
			want: &Frontmatter{
				Properties: map[string]any{
					"int": 42, "hex": 31, "float": 1.5, "bool": true, "yes": "yes", "null": nil, "empty": nil,
					"when": "2024-06-01T10:30:00Z", "inf": ".inf", "big": 1e20, "str": "42",
				},
				Keys: []string{"int", "hex", "float", "bool", "yes", "null", "empty", "when", "inf", "big", "str"},
			},
		},
		{
			name: "tags as a string with commas, spaces and #",
			src:  "---\ntags: \"#Project/Alpha, idea  #draft,,x\"\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{"tags": "#Project/Alpha, idea  #draft,,x"},
				Keys:       []string{"tags"},
				Tags:       []string{"Project/Alpha", "idea", "draft", "x"},
			},
		},
		{
			name: "tag key, list with # and numbers",
			src:  "---\ntag:\n  - '#a'\n  - 2024\n  - \n  - B\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{"tag": []any{"#a", 2024, nil, "B"}},
				Keys:       []string{"tag"},
				Tags:       []string{"a", "2024", "B"},
			},
		},
		{
			name: "tags wins over tag",
			src:  "---\ntag: x\ntags: y z\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{"tag": "x", "tags": "y z"},
				Keys:       []string{"tag", "tags"},
				Tags:       []string{"y", "z"},
			},
		},
		{
			name: "aliases as list and alias as string",
			src:  "---\naliases: [One, \"Two, Three\"]\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{"aliases": []any{"One", "Two, Three"}},
				Keys:       []string{"aliases"},
				Aliases:    []string{"One", "Two, Three"},
			},
		},
		{
			name: "alias string splits on commas only",
			src:  "---\nalias: My Note, Other name ,\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{"alias": "My Note, Other name ,"},
				Keys:       []string{"alias"},
				Aliases:    []string{"My Note", "Other name"},
			},
		},
		{
			name: "dates: forms and precedence",
			src:  "---\ncreated: not a date\ncreated_at: 2024-06-01 10:30\nupdated: 2024-07-02T08:00:00+02:00\nmodified: 2024\n---\n\x00",
			want: &Frontmatter{
				Properties: map[string]any{
					"created": "not a date", "created_at": "2024-06-01 10:30",
					"updated": "2024-07-02T08:00:00+02:00", "modified": 2024,
				},
				Keys:     []string{"created", "created_at", "updated", "modified"},
				Created:  time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC),
				Modified: fmDate(t, "2024-07-02T08:00:00+02:00"),
			},
		},
		{
			name: "title is trimmed and may be a number",
			src:  "---\ntitle: 2024\n---\n\x00",
			want: &Frontmatter{Properties: map[string]any{"title": 2024}, Keys: []string{"title"}, Title: "2024"},
		},
		{
			name: "indented top level",
			src:  "---\n  a: 1\n  b: 2\n---\n\x00",
			want: &Frontmatter{Properties: map[string]any{"a": 1, "b": 2}, Keys: []string{"a", "b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, want := tt.src, tt.want
			if i := strings.IndexByte(src, 0); i >= 0 {
				src = src[:i] + src[i+1:]
				if want != nil {
					w := *want
					w.End, want = i, &w
				}
			}
			got, err := parseFrontmatter([]byte(src), time.UTC)
			if err != nil {
				t.Fatalf("parseFrontmatter: %v", err)
			}
			if want == nil {
				if got != nil {
					t.Fatalf("parseFrontmatter = %+v, want no frontmatter", got)
				}
				return
			}
			if got == nil {
				t.Fatal("parseFrontmatter = nil, want a frontmatter")
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parseFrontmatter =\n%#v\nwant\n%#v", got, want)
			}
		})
	}
}

func TestParseFrontmatter_Errors(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		line     int
		contains string
	}{
		{"mapping value", "---\na: 1\nb: 2\nc: d: e\n---\nbody\n", 4, "frontmatter: line 4: mapping values are not allowed in this context"},
		{"unclosed flow list", "---\na: 1\nb: [x\nc: 2\n---\n", 3, "did not find expected ',' or ']'"},
		{"list item among keys", "---\na: 1\nb: 2\n- c\n---\n", 4, "did not find expected key"},
		{"missing colon", "---\na: 1\nb\nc: 2\n---\n", 3, "could not find expected ':'"},
		{"unterminated string", "---\na: 'x\n---\n", 3, "found unexpected end of stream"},
		{"tab indentation", "---\na: 1\n\tb: 2\n---\n", 3, "tab character"},
		{"error on the first line", "---\na: b: c\n---\n", 2, "mapping values are not allowed"},
		{"top level is a list", "---\n- a\n- b\n---\n", 2, "expected key: value pairs, found a list"},
		{"top level is a string", "---\n\njust words\n---\n", 3, "expected key: value pairs"},
		{"anchor and alias", "---\na: &x 1\nb: *x\n---\n", 2, "anchors (&x) are not allowed"},
		{"alias to nothing", "---\na: 1\nb: *x\n---\n", 3, "unknown anchor"},
		{"nested anchor", "---\na:\n  b: [1, &y 2]\n---\n", 3, "anchors (&y) are not allowed"},
		{"anchor on a key", "---\n&k a: 1\n---\n", 2, "anchors (&k) are not allowed"},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\n", 4, `key "a" is defined twice`},
		{"duplicate nested key", "---\na:\n  x: 1\n  y: 2\n  x: 3\n---\n", 5, `key "x" is defined twice`},
		{"list as key", "---\n? [a]\n: b\n---\n", 2, "a key must be a single value"},
		{"second document", "---\na: 1\n--- b\n---\n", 3, "more than one YAML document"},
		{"control character", "---\na: 1\nb: x\x01\n---\n", 3, "control characters are not allowed"},
		{"invalid UTF-8", "---\na: 1\n\nb: \xff\n---\n", 4, "invalid leading UTF-8 octet"},
		{"CRLF", "---\r\na: 1\r\nb: c: d\r\n---\r\n", 3, "frontmatter: line 3:"},
		{"byte order mark", "\xEF\xBB\xBF---\na: 1\nb: c: d\n---\n", 3, "frontmatter: line 3:"},
		{"lone CR counts for yaml, not for files", "---\na: 1\rb: 2\nc: d: e\n---\n", 3, "frontmatter: line 3:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			fm, err := parseFrontmatter(src, time.UTC)
			var e *wikierr.Error
			if !errors.As(err, &e) {
				t.Fatalf("parseFrontmatter error = %v, want an *wikierr.Error", err)
			}
			if e.Code != wikierr.CodeInvalidParams || e.Line != tt.line || !strings.Contains(e.Message, tt.contains) {
				t.Errorf("error = %q (code %s, line %d), want line %d containing %q", e.Message, e.Code, e.Line, tt.line, tt.contains)
			}
			if !errors.Is(err, wikierr.ErrInvalidParams) {
				t.Errorf("errors.Is(err, wikierr.ErrInvalidParams) = false")
			}
			if fm == nil {
				t.Fatal("no *Frontmatter with the error")
			}
			wantEnd := strings.LastIndex(tt.src, "---") + 3
			for wantEnd < len(src) && src[wantEnd-1] != '\n' {
				wantEnd++
			}
			if fm.End != wantEnd || fm.Properties != nil || fm.Keys != nil {
				t.Errorf("frontmatter = %+v, want only Start and End (%d)", fm, wantEnd)
			}
		})
	}
}

func TestParse_Frontmatter(t *testing.T) {
	t.Run("valid", func(t *testing.T) {
		src := "---\ntitle: Plan\ntags: [Project/Alpha]\naliases: Roadmap\nstatus: draft\ncreated: 2024-06-01\n---\n# Heading\n\nText #inline.\n"
		n := Parse("notes/plan", []byte(src))
		if n.FrontmatterErr != nil {
			t.Fatalf("FrontmatterErr = %v", n.FrontmatterErr)
		}
		if n.Title != "Plan" || n.TitleSource != TitleFromFrontmatter {
			t.Errorf("title = %q from %s", n.Title, n.TitleSource)
		}
		if n.BodyStart != strings.Index(src, "# Heading") || n.BodyLine != 8 {
			t.Errorf("body at %d line %d", n.BodyStart, n.BodyLine)
		}
		if !n.HasTag("project") || !n.HasTag("inline") {
			t.Errorf("tags = %v", n.Tags)
		}
		if !reflect.DeepEqual(n.Aliases, []string{"Roadmap"}) || n.Properties["status"] != "draft" {
			t.Errorf("aliases = %v, properties = %v", n.Aliases, n.Properties)
		}
		if want := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC); !n.Created.Equal(want) {
			t.Errorf("created = %v", n.Created)
		}
	})
	t.Run("malformed: body still parsed", func(t *testing.T) {
		src := "---\ntitle: Plan\ntags: [a\nstatus: x\n---\n# Heading\n\nText.\n"
		n := Parse("notes/plan", []byte(src))
		var e *wikierr.Error
		if !errors.As(n.FrontmatterErr, &e) || e.Line != 3 {
			t.Fatalf("FrontmatterErr = %v, want an *wikierr.Error on line 3", n.FrontmatterErr)
		}
		if n.Frontmatter != nil || n.Properties != nil {
			t.Errorf("frontmatter kept: %+v %v", n.Frontmatter, n.Properties)
		}
		if n.BodyStart != strings.Index(src, "# Heading") || n.BodyLine != 6 {
			t.Errorf("body at %d line %d", n.BodyStart, n.BodyLine)
		}
		if len(n.Headings) != 1 || n.Headings[0].Text != "Heading" || n.Headings[0].Line != 6 {
			t.Errorf("headings = %+v", n.Headings)
		}
		if n.Title != "Heading" || n.TitleSource != TitleFromHeading {
			t.Errorf("title = %q from %s", n.Title, n.TitleSource)
		}
	})
	t.Run("unclosed: whole file is body", func(t *testing.T) {
		src := "---\n# Heading\n"
		n := Parse("a", []byte(src))
		if n.FrontmatterErr != nil || n.Frontmatter != nil || n.BodyStart != 0 || n.BodyLine != 1 {
			t.Errorf("note = %+v", n)
		}
	})
}
