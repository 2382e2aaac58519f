package index

import (
	"cmp"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// unknownTime stands in for a zero Created or Modified: bleve cannot
// represent year 1, and every note must have a value to sort on. Hits map it
// back to the zero time.
var unknownTime = time.Unix(0, 0).UTC()

// fields returns the bleve document of a note, keyed by the field names of
// the mapping; pairs are its body's pairs of common words.
func fields(d *wiki.Document, pairs []string) map[string]any {
	title := d.Title
	if title == "" {
		title = path.Base(d.Path)
	}
	props := make([]string, 0, len(d.Properties))
	for key, values := range d.Properties {
		for _, v := range values {
			props = append(props, propTerm(key, v))
		}
	}
	sort.Strings(props)
	links := make([]string, 0, len(d.Links))
	for _, l := range d.Links {
		links = append(links, normPath(l))
	}
	doc := map[string]any{
		fieldPath:      d.Path,
		fieldPathSort:  d.Path,
		fieldFolders:   folders(d.Path),
		fieldTitle:     d.Title,
		fieldTitleSort: title,
		fieldAliases:   d.Aliases,
		fieldBody:      d.Body,
		fieldScript:    cmp.Or(analysis.DominantScript(d.Title, d.Body), "-"),
		fieldFront:     d.Frontmatter,
		fieldPairs:     pairs,
		fieldUnsure:    unsure(d.Frontmatter, d.Body),
		fieldBodyLine:  strconv.Itoa(d.BodyLine),
		fieldTags:      tagAncestors(d.Tags),
		fieldTagsExact: tagAncestors(d.Tags),
		fieldTagNames:  d.Tags,
		fieldProps:     props,
		fieldLinks:     links,
		fieldFile:      d.File,
		fieldVersion:   d.Version,
	}
	addDates(doc, d)
	return doc
}

// unsure returns "true" when Containing cannot rule out texts by their
// indexed words, and "" otherwise: when they hold a letter whose
// lowercase is longer or shorter in UTF-8 (the Kelvin sign, the dotted
// capital I, ...), which bleve's lowercase filter garbles along with the
// letters around it, or a letter that a case-insensitive regular
// expression takes for an ASCII one (the long s).
func unsure(texts ...string) string {
	for _, s := range texts {
		for i := 0; i < len(s); i++ {
			if s[i] < utf8.RuneSelf {
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if unsureRune(r, size) {
				return "true"
			}
			i += size - 1
		}
	}
	return ""
}

func unsureRune(r rune, size int) bool {
	if utf8.RuneLen(unicode.ToLower(r)) != size {
		return true
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < utf8.RuneSelf {
			return true
		}
	}
	return false
}

// timeKey returns t (unknownTime when zero) as a string that sorts as the
// times do: the nanoseconds since 1970, sign bit flipped, in 16 hex digits.
func timeKey(t time.Time) string {
	return nanosKey(indexTime(t).UnixNano())
}

// nanosKey is timeKey of a time in nanoseconds since 1970.
func nanosKey(n int64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	u := uint64(n) ^ (1 << 63)
	for i := 15; i >= 0; i-- {
		b[i] = digits[u&0xf]
		u >>= 4
	}
	return string(b[:])
}

// isTimeKey reports whether s has the form of a timeKey.
func isTimeKey(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := range len(s) {
		if !('0' <= s[i] && s[i] <= '9' || 'a' <= s[i] && s[i] <= 'f') {
			return false
		}
	}
	return true
}

// folders returns every ancestor folder of a note path: "a/b/c" gives "a"
// and "a/b".
func folders(p string) []string {
	var out []string
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[:i])
		}
	}
	return out
}

// tagAncestors returns the tags with every ancestor of a nested tag, each
// once, as written: "Project/Alpha" gives "Project" and "Project/Alpha". A
// leading '#' is dropped.
func tagAncestors(tags []string) []string {
	seen := make(map[string]bool, len(tags))
	var out []string
	for _, t := range tags {
		t = normTag(t)
		for i := 0; i <= len(t); i++ {
			if i < len(t) && t[i] != '/' {
				continue
			}
			a := t[:i]
			if a != "" && !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// normTag trims a tag as written, or as asked for in a query: no
// surrounding space, '#' or '/'.
func normTag(t string) string {
	return strings.Trim(strings.TrimSpace(t), "#/")
}

// normPath trims a note path or link target and drops a markdown
// extension, so that links and queries compare the same way; the keyword
// analyzer lowercases it when it is indexed or searched.
func normPath(p string) string {
	p = strings.Trim(strings.TrimSpace(p), "/")
	base, _ := wiki.SplitNoteExtension(p)
	return base
}

// propTerm is the term of one property value: "key=value", lowercased.
func propTerm(key, value string) string {
	return strings.ToLower(strings.TrimSpace(key)) + "=" + strings.ToLower(strings.TrimSpace(value))
}

// indexTime returns t, or unknownTime for a zero t; bleve stores
// nanoseconds since 1970 in an int64.
func indexTime(t time.Time) time.Time {
	if t.IsZero() {
		return unknownTime
	}
	return t
}
