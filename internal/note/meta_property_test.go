package note

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// metaPropertyDocs are notes whose every key TestUpdateMetadata_EachKey
// changes in turn.
var metaPropertyDocs = []string{
	metaRich,
	strings.ReplaceAll(metaRich, "\n", "\r\n"),
	"---\n  title: x\n  list:\n    - a\n    - b\n  map:\n    k: v\n---\nbody\n",
	"---\n# head comment\ntags:\n- a\n- b\n\"quoted key\": \"multi\n  line value\"\n\n# before last\n" +
		"last: |\n  # not a comment\n  text\n# footer\n---\n# Body\n",
	"\xEF\xBB\xBF---\na: {x: 1, y: [2, 3]}\n\nb: plain text # c\nc: >-\n  folded\n\n  para\n---\n# H\n",
	"---\na: 1\nb: |+\n  x\n\n\n---\n",
	"---\nempty:\nnull: ~\nlist: []\nd: 2024-06-01\n...\nbody\n",
}

// metaKeyLines returns, for each top-level key of doc, the 0-based index
// of its key line and of the next key's line (or of the closing line): the
// lines a change of that key may touch.
func metaKeyLines(tb testing.TB, doc string) map[string][2]int {
	tb.Helper()
	b, err := scanFrontmatter([]byte(doc))
	if err != nil || b == nil {
		tb.Fatalf("scanFrontmatter: %v", err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc[b.contentStart:b.closeStart]), &root); err != nil {
		tb.Fatalf("yaml.Unmarshal: %v", err)
	}
	m := root.Content[0]
	closing := strings.Count(doc[:b.closeStart], "\n")
	lines := map[string][2]int{}
	for i := 0; i < len(m.Content); i += 2 {
		limit := closing
		if i+2 < len(m.Content) {
			limit = m.Content[i+2].Line // YAML line l is file line l+1, index l
		}
		lines[m.Content[i].Value] = [2]int{m.Content[i].Line, limit}
	}
	return lines
}

// metaSplitLines splits s after each "\n", keeping line endings.
func metaSplitLines(s string) []string {
	return strings.SplitAfter(s, "\n")
}

// metaChangedLines returns the range [from, to) of lines of a that differ
// from b once their common first and last lines are set aside, and how
// many lines of b replace them.
func metaChangedLines(a, b string) (from, to, added int) {
	la, lb := metaSplitLines(a), metaSplitLines(b)
	p := 0
	for p < len(la) && p < len(lb) && la[p] == lb[p] {
		p++
	}
	s := 0
	for s < len(la)-p && s < len(lb)-p && la[len(la)-1-s] == lb[len(lb)-1-s] {
		s++
	}
	return p, len(la) - s, len(lb) - s - p
}

func TestUpdateMetadata_EachKey(t *testing.T) {
	values := []any{
		"new value",
		[]any{"x", "y"},
		map[string]any{"k": 1, "l": []any{true}},
		"line 1\nline 2",
		42,
		nil,
	}
	for di, doc := range metaPropertyDocs {
		before, err := parseFrontmatter([]byte(doc), time.UTC)
		if err != nil || before == nil {
			t.Fatalf("doc %d: parseFrontmatter: %v", di, err)
		}
		keyLines := metaKeyLines(t, doc)
		for ki, key := range before.Keys {
			value := values[(di+ki)%len(values)]
			for _, op := range []string{"set", "unset"} {
				t.Run(fmt.Sprintf("doc%d/%s/%s", di, op, key), func(t *testing.T) {
					ch := MetaChange{Set: map[string]any{key: value}}
					if op == "unset" {
						ch = MetaChange{Unset: []string{key}}
					}
					out, err := UpdateMetadata([]byte(doc), ch)
					if err != nil {
						t.Fatalf("UpdateMetadata: %v", err)
					}
					from, to, _ := metaChangedLines(doc, string(out))
					if r := keyLines[key]; from < r[0] || to > r[1] {
						t.Errorf("lines %d..%d changed, want only within %d..%d (the lines of %q):\n%s",
							from+1, to, r[0]+1, r[1], key, out)
					}
					after, err := parseFrontmatter(out, time.UTC)
					if err != nil || after == nil {
						t.Fatalf("result does not parse: %v\n%s", err, out)
					}
					if doc[before.End:] != string(out[after.End:]) {
						t.Errorf("body changed:\n%q\nwant\n%q", out[after.End:], doc[before.End:])
					}
					got, ok := after.Properties[key]
					switch {
					case op == "set" && (!ok || !reflect.DeepEqual(got, value)):
						t.Errorf("%s = %#v (present %v), want %#v", key, got, ok, value)
					case op == "unset" && ok:
						t.Errorf("%s still present: %#v", key, got)
					}
					for k, v := range before.Properties {
						if k != key && !reflect.DeepEqual(after.Properties[k], v) {
							t.Errorf("%s = %#v, want it unchanged: %#v", k, after.Properties[k], v)
						}
					}
				})
			}
		}
		t.Run(fmt.Sprintf("doc%d/new key", di), func(t *testing.T) {
			out, err := UpdateMetadata([]byte(doc), MetaChange{Set: map[string]any{"zz new": []any{"a"}}})
			if err != nil {
				t.Fatalf("UpdateMetadata: %v", err)
			}
			from, to, added := metaChangedLines(doc, string(out))
			if from != to || added != 2 {
				t.Errorf("lines %d..%d replaced by %d lines, want 2 lines inserted:\n%s", from+1, to, added, out)
			}
			after, err := parseFrontmatter(out, time.UTC)
			if err != nil {
				t.Fatalf("result does not parse: %v", err)
			}
			if last := after.Keys[len(after.Keys)-1]; last != "zz new" {
				t.Errorf("last key = %q, want the new key", last)
			}
		})
	}
}
