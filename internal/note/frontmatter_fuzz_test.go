package note

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wikierr"
)

// fmFuzzSeeds are frontmatter shapes that seed both fuzz targets.
var fmFuzzSeeds = []string{
	"",
	"# no frontmatter\n",
	"---\n---\n",
	"---\ntitle: x\n---",
	"\xEF\xBB\xBF---\r\ntitle: x\r\ntags: [a, b]\r\n...\r\nbody\r\n",
	"---\na: &x 1\nb: *x\n---\n",
	"---\na: 1\na: 2\n---\n",
	"---\n- a\n---\n",
	"---\na: b: c\n---\n",
	"---\na: 1\rb: 2\u2028c: 3\n---\n",
	"---\n{a: 1}\n---\n",
	"---\n? [a]\n: b\n---\n",
	"---\na: 1\n--- b\n---\n",
	"---\ntags: \"#a, b c\"\naliases: x, y\ncreated: 2024-06-01\n---\n",
}

func FuzzParseFrontmatter(f *testing.F) {
	for _, s := range append(fmFuzzSeeds, metaPropertyDocs...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		fm, err := parseFrontmatter(src, time.UTC)
		if fm == nil {
			if err != nil {
				t.Fatalf("error without a frontmatter: %v", err)
			}
			return
		}
		if fm.Start < 0 || fm.Start > fm.End || fm.End > len(src) {
			t.Fatalf("Start %d End %d out of bounds (len %d)", fm.Start, fm.End, len(src))
		}
		if fm.End < len(src) && src[fm.End-1] != '\n' {
			t.Fatalf("End %d is not at a line start", fm.End)
		}
		if err != nil {
			var e *wikierr.Error
			if !errors.As(err, &e) || e.Code != wikierr.CodeInvalidParams {
				t.Fatalf("error %v is not an INVALID_PARAMS *wikierr.Error", err)
			}
			if lines := 1 + bytes.Count(src[:fm.End], []byte("\n")); e.Line < 1 || e.Line > lines {
				t.Fatalf("error line %d outside the block's lines 1..%d: %v", e.Line, lines, err)
			}
			if fm.Properties != nil || fm.Keys != nil {
				t.Fatalf("malformed block kept properties %v", fm.Properties)
			}
		} else {
			if fm.Properties == nil || len(fm.Keys) != len(fm.Properties) {
				t.Fatalf("keys %q do not match properties %v", fm.Keys, fm.Properties)
			}
			if _, err := json.Marshal(fm.Properties); err != nil {
				t.Fatalf("properties are not JSON values: %v", err)
			}
		}
		if n := Parse("fuzz", src); n.BodyStart != fm.End {
			t.Fatalf("Parse BodyStart %d, frontmatter End %d", n.BodyStart, fm.End)
		}
	})
}
