package note

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wikierr"
)

func ptr[T any](v T) *T { return &v }

// metaRich is a frontmatter with most of what people write by hand.
const metaRich = `---
# Note settings
title: "Old title" # shown in the sidebar
'my key': 1
aliases: First, Second
tags:
  - alpha   # the first
  - Beta

  - "#gamma"
# where it stands
status: draft
summary: >
  Folded text
  over lines.

notes: |+
  kept

project:
  name: wikid
  owners: [ann, bob]
---
# Body

Text with #inline tag.
`

func TestUpdateMetadata_Whole(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ch   MetaChange
		want string
	}{
		{
			name: "no frontmatter: new block on top",
			src:  "# Title\n\nText.\n",
			ch:   MetaChange{Title: ptr("New"), AddTags: []string{"#idea", "##b"}, Set: map[string]any{"z": 1, "a": "x"}},
			want: "---\ntitle: New\ntags:\n  - idea\n  - b\na: x\nz: 1\n---\n# Title\n\nText.\n",
		},
		{
			name: "replace a set of tags",
			src:  "---\ntags: !!set {a, b}\n---\nx\n",
			ch:   MetaChange{Tags: []string{"c"}},
			want: "---\ntags:\n  - c\n---\nx\n",
		},
		{
			name: "no frontmatter, CRLF",
			src:  "# T\r\nx\r\n",
			ch:   MetaChange{Aliases: []string{"One"}},
			want: "---\r\naliases:\r\n  - One\r\n---\r\n# T\r\nx\r\n",
		},
		{
			name: "no frontmatter, byte order mark stays first",
			src:  "\xEF\xBB\xBFText\n",
			ch:   MetaChange{Set: map[string]any{"status": "done"}},
			want: "\xEF\xBB\xBF---\nstatus: done\n---\nText\n",
		},
		{
			name: "no frontmatter, unclosed --- stays body",
			src:  "---\nnot a block\n",
			ch:   MetaChange{Title: ptr("T")},
			want: "---\ntitle: T\n---\n---\nnot a block\n",
		},
		{
			name: "empty file",
			src:  "",
			ch:   MetaChange{Title: ptr("T")},
			want: "---\ntitle: T\n---\n",
		},
		{
			name: "empty block",
			src:  "---\n---\nbody\n",
			ch:   MetaChange{Set: map[string]any{"a": 1}},
			want: "---\na: 1\n---\nbody\n",
		},
		{
			name: "comment-only block: new key before the closing line",
			src:  "---\n# keep me\n---\nbody\n",
			ch:   MetaChange{Set: map[string]any{"a": true}},
			want: "---\n# keep me\na: true\n---\nbody\n",
		},
		{
			name: "title keeps its line comment",
			src:  metaRich,
			ch:   MetaChange{Title: ptr("New: title")},
			want: strings.Replace(metaRich, `title: "Old title" # shown`, `title: 'New: title' # shown`, 1),
		},
		{
			name: "quoted key keeps its quotes",
			src:  metaRich,
			ch:   MetaChange{Set: map[string]any{"my key": 2}},
			want: strings.Replace(metaRich, "'my key': 1\n", "'my key': 2\n", 1),
		},
		{
			name: "block tags: remove and add item lines only",
			src:  metaRich,
			ch:   MetaChange{RemoveTags: []string{"ALPHA", "nope"}, AddTags: []string{"delta", "beta"}},
			want: strings.Replace(metaRich, "  - alpha   # the first\n  - Beta\n\n  - \"#gamma\"\n", "  - Beta\n\n  - \"#gamma\"\n  - delta\n", 1),
		},
		{
			name: "block tags: remove an item in the middle keeps the blank line",
			src:  metaRich,
			ch:   MetaChange{RemoveTags: []string{"beta"}},
			want: strings.Replace(metaRich, "  - Beta\n", "", 1),
		},
		{
			name: "block tags: remove all",
			src:  metaRich,
			ch:   MetaChange{RemoveTags: []string{"alpha", "beta", "gamma"}},
			want: strings.Replace(metaRich, "tags:\n  - alpha   # the first\n  - Beta\n\n  - \"#gamma\"\n", "tags: []\n", 1),
		},
		{
			name: "block tags: replace rewrites the list",
			src:  metaRich,
			ch:   MetaChange{Tags: []string{"x", "#Y"}},
			want: strings.Replace(metaRich, "tags:\n  - alpha   # the first\n  - Beta\n\n  - \"#gamma\"\n", "tags:\n  - x\n  - Y\n", 1),
		},
		{
			name: "compact block list stays compact",
			src:  "---\ntags:\n- a\n- b\nx: 1\n---\n",
			ch:   MetaChange{AddTags: []string{"c", "123"}},
			want: "---\ntags:\n- a\n- b\n- c\n- \"123\"\nx: 1\n---\n",
		},
		{
			name: "compact style is used for a new list",
			src:  "---\nother:\n- a\n---\n",
			ch:   MetaChange{AddTags: []string{"c"}},
			want: "---\nother:\n- a\ntags:\n- c\n---\n",
		},
		{
			name: "flow tags: one line rewritten, comment kept",
			src:  "---\ntags: [a, b] # mine\nx: 1\n---\n",
			ch:   MetaChange{RemoveTags: []string{"a"}, AddTags: []string{"c"}},
			want: "---\ntags: [b, c] # mine\nx: 1\n---\n",
		},
		{
			name: "string tags with commas",
			src:  "---\ntags: a, b\n---\n",
			ch:   MetaChange{AddTags: []string{"c"}},
			want: "---\ntags: a, b, c\n---\n",
		},
		{
			name: "string tags with spaces",
			src:  "---\ntags: a b\n---\n",
			ch:   MetaChange{AddTags: []string{"c"}, RemoveTags: []string{"A"}},
			want: "---\ntags: b c\n---\n",
		},
		{
			name: "string tags with # keep their spelling and quotes",
			src:  "---\ntags: \"#a #b\"\n---\n",
			ch:   MetaChange{AddTags: []string{"#c"}},
			want: "---\ntags: \"#a #b c\"\n---\n",
		},
		{
			name: "string tags: remove the last",
			src:  "---\ntag: a\n---\n",
			ch:   MetaChange{RemoveTags: []string{"a"}},
			want: "---\ntag: []\n---\n",
		},
		{
			name: "null tags become a list",
			src:  "---\ntags:\nx: 1\n---\n",
			ch:   MetaChange{AddTags: []string{"a"}},
			want: "---\ntags:\n  - a\nx: 1\n---\n",
		},
		{
			name: "aliases string style",
			src:  metaRich,
			ch:   MetaChange{Aliases: []string{"First", "Third"}},
			want: strings.Replace(metaRich, "aliases: First, Second\n", "aliases: First, Third\n", 1),
		},
		{
			name: "aliases with a comma become a list",
			src:  "---\naliases: A\n---\n",
			ch:   MetaChange{Aliases: []string{"A, B"}},
			want: "---\naliases:\n  - A, B\n---\n",
		},
		{
			name: "aliases cleared",
			src:  "---\naliases:\n  - A\n---\n",
			ch:   MetaChange{Aliases: []string{}},
			want: "---\naliases: []\n---\n",
		},
		{
			name: "unset keeps the comment above and the blank line after",
			src:  metaRich,
			ch:   MetaChange{Unset: []string{"status", "summary"}},
			want: strings.Replace(metaRich, "status: draft\nsummary: >\n  Folded text\n  over lines.\n", "", 1),
		},
		{
			name: "keep-chomped literal keeps its blank line",
			src:  metaRich,
			ch:   MetaChange{Set: map[string]any{"notes": "short"}},
			want: strings.Replace(metaRich, "notes: |+\n  kept\n\n", "notes: short\n", 1),
		},
		{
			name: "nested map replaced",
			src:  metaRich,
			ch:   MetaChange{Set: map[string]any{"project": map[string]any{"name": "x", "tags": []any{"a", 2.5}}}},
			want: strings.Replace(metaRich, "project:\n  name: wikid\n  owners: [ann, bob]\n", "project:\n  name: x\n  tags:\n    - a\n    - 2.5\n", 1),
		},
		{
			name: "new keys go at the end, sorted",
			src:  metaRich,
			ch:   MetaChange{Set: map[string]any{"zeta": nil, "rating": 4.0, "done": false, "due": "2024-06-01", "code": "123", "text": "line 1\nline 2"}},
			want: strings.Replace(metaRich, "---\n# Body", "code: \"123\"\ndone: false\ndue: 2024-06-01\nrating: 4\ntext: |-\n  line 1\n  line 2\nzeta: null\n---\n# Body", 1),
		},
		{
			name: "CRLF block stays CRLF",
			src:  "---\r\ntitle: a\r\ntags:\r\n  - x\r\n---\r\nbody\r\n",
			ch:   MetaChange{Title: ptr("b"), AddTags: []string{"y"}, Set: map[string]any{"n": 1}},
			want: "---\r\ntitle: b\r\ntags:\r\n  - x\r\n  - y\r\nn: 1\r\n---\r\nbody\r\n",
		},
		{
			name: "indented top level keeps its indentation",
			src:  "---\n  a: 1\n  b:\n    - x\n---\n",
			ch:   MetaChange{Set: map[string]any{"a": []any{"p"}, "c": "q"}},
			want: "---\n  a:\n    - p\n  b:\n    - x\n  c: q\n---\n",
		},
		{
			name: "dots closing line and no final newline",
			src:  "---\na: 1\n...",
			ch:   MetaChange{Set: map[string]any{"b": 2}},
			want: "---\na: 1\nb: 2\n...",
		},
		{
			name: "quoted multi-line value replaced whole",
			src:  "---\na: \"one\n  # two\"\n# after\nb: 1\n---\n",
			ch:   MetaChange{Set: map[string]any{"a": "x"}},
			want: "---\na: x\n# after\nb: 1\n---\n",
		},
		{
			name: "json numbers and times",
			src:  "---\n---\n",
			ch:   MetaChange{Set: map[string]any{"n": json.Number("12"), "f": json.Number("0.5"), "t": time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC)}},
			want: "---\nf: 0.5\nn: 12\nt: 2024-06-01T10:30:00Z\n---\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UpdateMetadata([]byte(tt.src), tt.ch)
			if err != nil {
				t.Fatalf("UpdateMetadata: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("UpdateMetadata =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestUpdateMetadata_NoChange(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ch   MetaChange
	}{
		{"nothing asked", metaRich, MetaChange{}},
		{"same title, other quoting", metaRich, MetaChange{Title: ptr("Old title")}},
		{"same number as a JSON float", metaRich, MetaChange{Set: map[string]any{"my key": 1.0}}},
		{"same list", metaRich, MetaChange{Set: map[string]any{"project": map[string]any{"name": "wikid", "owners": []string{"ann", "bob"}}}}},
		{"tag already there, other case", metaRich, MetaChange{AddTags: []string{"ALPHA", "#gamma"}}},
		{"tag not there", metaRich, MetaChange{RemoveTags: []string{"zzz"}}},
		{"same tags replaced", "---\ntags: \"#a, b\"\n---\n", MetaChange{Tags: []string{"a", "b"}}},
		{"same aliases", metaRich, MetaChange{Aliases: []string{"First", "Second"}}},
		{"unset a missing key", metaRich, MetaChange{Unset: []string{"nope"}}},
		{"no frontmatter, unset", "text\n", MetaChange{Unset: []string{"a"}, RemoveTags: []string{"x"}, Tags: nil}},
		{"no frontmatter, clear tags", "text\n", MetaChange{Tags: []string{}, Aliases: []string{}}},
		{"no tags key, clear tags", "---\na: 1\n---\n", MetaChange{Tags: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			got, err := UpdateMetadata(src, tt.ch)
			if err != nil {
				t.Fatalf("UpdateMetadata: %v", err)
			}
			if string(got) != tt.src {
				t.Errorf("UpdateMetadata changed the note:\n%s", got)
			}
			if len(src) > 0 && &got[0] != &src[0] {
				t.Errorf("UpdateMetadata returned a copy, want src itself")
			}
		})
	}
}

func TestUpdateMetadata_Errors(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	tests := []struct {
		name     string
		src      string
		ch       MetaChange
		code     wikierr.Code
		line     int
		contains string
	}{
		{"tags with add_tags", metaRich, MetaChange{Tags: []string{"a"}, AddTags: []string{"b"}}, wikierr.CodeInvalidParams, 0, "cannot be combined"},
		{"tags with remove_tags", metaRich, MetaChange{Tags: []string{}, RemoveTags: []string{"b"}}, wikierr.CodeInvalidParams, 0, "cannot be combined"},
		{"empty tag", metaRich, MetaChange{AddTags: []string{" # "}}, wikierr.CodeInvalidParams, 0, "is empty"},
		{"tag of hashes only", metaRich, MetaChange{AddTags: []string{"##"}}, wikierr.CodeInvalidParams, 0, "is empty"},
		{"tag with a space", metaRich, MetaChange{Tags: []string{"two words"}}, wikierr.CodeInvalidParams, 0, "whitespace"},
		{"tag with a comma", metaRich, MetaChange{RemoveTags: []string{"a,b"}}, wikierr.CodeInvalidParams, 0, "comma"},
		{"empty alias", metaRich, MetaChange{Aliases: []string{" "}}, wikierr.CodeInvalidParams, 0, "is empty"},
		{"alias with a newline", metaRich, MetaChange{Aliases: []string{"a\nb"}}, wikierr.CodeInvalidParams, 0, "line break"},
		{"set and unset", metaRich, MetaChange{Set: map[string]any{"a": 1}, Unset: []string{"a"}}, wikierr.CodeInvalidParams, 0, "both set and unset"},
		{"title and set title", metaRich, MetaChange{Title: ptr("x"), Set: map[string]any{"title": "y"}}, wikierr.CodeInvalidParams, 0, "changed twice"},
		{"tags and unset tags", metaRich, MetaChange{AddTags: []string{"x"}, Unset: []string{"tags"}}, wikierr.CodeInvalidParams, 0, "changed twice"},
		{"tag key is tag", "---\ntag: a\n---\n", MetaChange{AddTags: []string{"x"}, Set: map[string]any{"tag": "y"}}, wikierr.CodeInvalidParams, 0, "changed twice"},
		{"empty key", metaRich, MetaChange{Set: map[string]any{"": 1}}, wikierr.CodeInvalidParams, 0, "empty"},
		{"key with a newline", metaRich, MetaChange{Unset: []string{"a\nb"}}, wikierr.CodeInvalidParams, 0, "line break"},
		{"NaN", metaRich, MetaChange{Set: map[string]any{"a": math.NaN()}}, wikierr.CodeInvalidParams, 0, "cannot be written"},
		{"function", metaRich, MetaChange{Set: map[string]any{"a": func() {}}}, wikierr.CodeInvalidParams, 0, "not a JSON value"},
		{"map with int keys", metaRich, MetaChange{Set: map[string]any{"a": map[int]any{1: 2}}}, wikierr.CodeInvalidParams, 0, "keys must be strings"},
		{"cyclic value", metaRich, MetaChange{Set: map[string]any{"a": cyclic}}, wikierr.CodeInvalidParams, 0, "levels deep"},
		{"invalid UTF-8", metaRich, MetaChange{Set: map[string]any{"a": "\xff"}}, wikierr.CodeInvalidParams, 0, "UTF-8"},
		{"malformed frontmatter", "---\na: 1\nb: c: d\n---\nbody\n", MetaChange{Title: ptr("x")}, wikierr.CodeInvalidParams, 3, "frontmatter: line 3:"},
		{"duplicate keys", "---\na: 1\na: 2\n---\n", MetaChange{Unset: []string{"a"}}, wikierr.CodeInvalidParams, 3, "defined twice"},
		{"flow mapping at the top", "---\n{a: 1, b: 2}\n---\n", MetaChange{Set: map[string]any{"c": 3}}, wikierr.CodeInvalidParams, 2, "each top-level key must start its own line"},
		{"explicit key", "---\na: 1\n? b\n: 2\n---\n", MetaChange{Set: map[string]any{"a": 3}}, wikierr.CodeInvalidParams, 3, "each top-level key must start its own line"},
		{"add to a set of tags", "---\ntitle: x\ntags: !!set {a, b}\n---\n", MetaChange{AddTags: []string{"c"}}, wikierr.CodeInvalidParams, 3,
			`tags is a set, not a list or a string of tags: "tags: !!set {a, b}"`},
		{"remove from a set of tags", "---\ntags: !!set\n  ? a\n  ? b\n---\n", MetaChange{RemoveTags: []string{"a"}}, wikierr.CodeInvalidParams, 2,
			`tags is a set, not a list or a string of tags: "tags: !!set"`},
		{"add to a mapping of tags", "---\ntags: {a: 1}\n---\n", MetaChange{AddTags: []string{"c"}}, wikierr.CodeInvalidParams, 2,
			`tags is a mapping, not a list or a string of tags: "tags: {a: 1}"`},
		{"add to a block mapping of tags", "---\ntag:\n  a: 1\n---\n", MetaChange{AddTags: []string{"c"}}, wikierr.CodeInvalidParams, 2,
			`tag is a mapping, not a list or a string of tags`},
		{"add to tags holding a mapping", "---\ntags: [a, {b: 1}]\n---\n", MetaChange{AddTags: []string{"c"}}, wikierr.CodeInvalidParams, 2,
			`tags is a list whose item 2 is a mapping, not a list or a string of tags`},
		{"write tags into a list of lists", "---\ntags:\n  - [a, b]\n---\n", MetaChange{AddTags: []string{"c"}}, wikierr.CodeInvalidParams, 2,
			`tags is a list whose item 1 is a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UpdateMetadata([]byte(tt.src), tt.ch)
			var e *wikierr.Error
			if !errors.As(err, &e) {
				t.Fatalf("UpdateMetadata = %q, %v; want an *wikierr.Error", got, err)
			}
			if e.Code != tt.code || e.Line != tt.line || !strings.Contains(e.Message, tt.contains) {
				t.Errorf("error = %q (code %s, line %d), want code %s, line %d, containing %q", e.Message, e.Code, e.Line, tt.code, tt.line, tt.contains)
			}
			if got != nil {
				t.Errorf("UpdateMetadata returned %q with an error", got)
			}
		})
	}
}
