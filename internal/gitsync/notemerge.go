package gitsync

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// mergeNote merges the three versions of a note: the body line by line,
// the frontmatter key by key (tags and aliases as sets, honouring a
// removal on either side). It returns the merged note, or "" and why the
// two sides cannot be merged: the same lines changed differently, the same
// frontmatter key set to different values, or a frontmatter that does not
// parse.
func mergeNote(base, ours, theirs []byte) ([]byte, string) {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(base, theirs):
		return ours, ""
	case bytes.Equal(base, ours):
		return theirs, ""
	}
	nb, no, nt := note.Parse("b.md", base), note.Parse("o.md", ours), note.Parse("t.md", theirs)
	if nb.FrontmatterErr != nil || no.FrontmatterErr != nil || nt.FrontmatterErr != nil {
		// Without frontmatter to read, the whole text merges by lines.
		merged, conflicts, err := textdiff.Merge3(base, ours, theirs)
		if err != nil {
			return nil, conflictLines(conflicts, 0)
		}
		return merged, ""
	}
	body, conflicts, err := textdiff.Merge3(base[nb.BodyStart:], ours[no.BodyStart:], theirs[nt.BodyStart:])
	if err != nil {
		return nil, conflictLines(conflicts, nb.BodyLine-1)
	}
	fb, fo, ft := base[:nb.BodyStart], ours[:no.BodyStart], theirs[:nt.BodyStart]
	switch {
	case bytes.Equal(fo, ft), bytes.Equal(fb, ft):
		return concat(fo, body), ""
	case bytes.Equal(fb, fo):
		return concat(ft, body), ""
	}
	change, why := frontmatterChange(nb.Frontmatter, no.Frontmatter, nt.Frontmatter)
	if why != "" {
		return nil, why
	}
	merged, err := note.UpdateMetadata(concat(fo, body), change)
	if err != nil {
		return nil, "the frontmatter cannot be merged key by key: " + err.Error()
	}
	return merged, ""
}

// frontmatterChange returns the change that brings theirs' frontmatter
// changes since base onto ours, or why it cannot: a key both sides set to
// different values. A nil frontmatter has no keys.
func frontmatterChange(base, ours, theirs *note.Frontmatter) (note.MetaChange, string) {
	var ch note.MetaChange
	props := func(f *note.Frontmatter) map[string]any {
		if f == nil {
			return nil
		}
		return f.Properties
	}
	pb, po, pt := props(base), props(ours), props(theirs)
	var keys []string
	for _, f := range []*note.Frontmatter{ours, theirs, base} {
		if f != nil {
			for _, k := range f.Keys {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
		}
	}
	for _, k := range keys {
		b, inB := pb[k]
		o, inO := po[k]
		t, inT := pt[k]
		same := func(x any, inX bool, y any, inY bool) bool { return inX == inY && reflect.DeepEqual(x, y) }
		if same(o, inO, t, inT) || same(b, inB, t, inT) {
			continue // ours has it already
		}
		bothChanged := !same(b, inB, o, inO)
		switch k {
		case "tags", "tag":
			ch.Tags = mergeSet(listOf(base, "tags"), listOf(ours, "tags"), listOf(theirs, "tags"))
			continue
		case "aliases", "alias":
			ch.Aliases = mergeSet(listOf(base, "aliases"), listOf(ours, "aliases"), listOf(theirs, "aliases"))
			continue
		}
		if bothChanged {
			return ch, fmt.Sprintf("both sides changed the frontmatter key %q", k)
		}
		switch {
		case !inT:
			ch.Unset = append(ch.Unset, k)
		case k == "title":
			if s, ok := t.(string); ok {
				ch.Title = &s
				continue
			}
			fallthrough
		default:
			if ch.Set == nil {
				ch.Set = map[string]any{}
			}
			ch.Set[k] = t
		}
	}
	return ch, ""
}

// listOf returns a frontmatter's tags or aliases, never nil.
func listOf(f *note.Frontmatter, which string) []string {
	if f == nil {
		return []string{}
	}
	if which == "tags" {
		return append([]string{}, f.Tags...)
	}
	return append([]string{}, f.Aliases...)
}

// mergeSet merges two changes to a set, ignoring case: ours in its order,
// less what theirs removed since base, then what theirs added.
func mergeSet(base, ours, theirs []string) []string {
	has := func(list []string, s string) bool {
		return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
	}
	out := []string{}
	for _, s := range ours {
		if has(base, s) && !has(theirs, s) {
			continue // theirs removed it
		}
		out = append(out, s)
	}
	for _, s := range theirs {
		if !has(base, s) && !has(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// conflictLines says where the lines of a note conflict: the base's lines,
// numbered from offset+1.
func conflictLines(cs []textdiff.Conflict, offset int) string {
	if len(cs) == 0 {
		return "both sides changed the same lines"
	}
	var where []string
	for _, c := range cs {
		start := offset + c.Base.Start
		if c.Base.Count <= 1 {
			where = append(where, fmt.Sprint(start))
		} else {
			where = append(where, fmt.Sprintf("%d-%d", start, start+c.Base.Count-1))
		}
	}
	return "both sides changed lines " + strings.Join(where, ", ")
}

func concat(a, b []byte) []byte {
	out := make([]byte, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
