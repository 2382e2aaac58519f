package graph

import (
	"net/url"
	"strings"
)

// relPath returns the path of p relative to the folder dir, both from the
// root: "../" for each folder of dir that p is not in, then the rest of p.
func relPath(dir, p string) string {
	var ds []string
	if dir != "" {
		ds = strings.Split(dir, "/")
	}
	ps := strings.Split(p, "/")
	i := 0
	for i < len(ds) && i < len(ps)-1 && ds[i] == ps[i] {
		i++
	}
	return strings.Repeat("../", len(ds)-i) + strings.Join(ps[i:], "/")
}

// escapeDest writes a relative path as a markdown link destination that
// the note parser decodes back to it. With encoded (the old destination
// was percent-encoded) every segment is escaped like a URL path;
// otherwise only what would end or change the destination is: '%', and
// outside angle brackets blanks, parentheses, '<', '>', '#' and '?';
// inside them '<', '>' and '#' and '?'.
func escapeDest(p string, encoded, angle bool) string {
	if encoded {
		segs := strings.Split(p, "/")
		for i, s := range segs {
			if s != "." && s != ".." {
				segs[i] = url.PathEscape(s)
			}
		}
		return strings.Join(segs, "/")
	}
	var b strings.Builder
	for _, r := range p {
		switch {
		case r == '%', r == '<', r == '>', r == '#', r == '?', r < ' ', r == 0x7f,
			!angle && (r == ' ' || r == '(' || r == ')'):
			b.WriteString(url.PathEscape(string(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
