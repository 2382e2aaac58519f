package web

import (
	"html/template"
	"net/url"
	"regexp"
	"strings"
)

// The markdown a snippet shows as text: wiki links, markdown links and
// images, bare URLs. The search index marks matched words with « and »,
// which may stand anywhere in them.
var (
	snipWikiLink = regexp.MustCompile(`!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]`)
	snipMDLink   = regexp.MustCompile(`!?\[([^\]]*)\]\(([^()\s]*)(?:\s+"[^"]*")?\)`)
	snipURL      = regexp.MustCompile(`(?:«)?https?://[^\s<>()\[\]]+`)
	snipEmphasis = strings.NewReplacer("**", "", "__", "", "`", "")
	snipMarks    = strings.NewReplacer("«", "", "»", "")
	snipHeading  = regexp.MustCompile(`(?m)^#{1,6}[ \t]+`)
)

// snippetHTML renders a search snippet as text: [[target|label]] as the
// label, [[target]] as the target, a markdown link as its text, a bare
// URL as its host, the matched words marked. A match in the part of a
// link that is not shown marks the part that is.
func snippetHTML(s string) template.HTML {
	s = snipWikiLink.ReplaceAllStringFunc(s, func(m string) string {
		g := snipWikiLink.FindStringSubmatch(m)
		target, label := g[1], g[2]
		if label == "" {
			return strings.ReplaceAll(target, "#", " › ")
		}
		return shown(label, target)
	})
	s = snipMDLink.ReplaceAllStringFunc(s, func(m string) string {
		g := snipMDLink.FindStringSubmatch(m)
		if g[1] == "" {
			return shown(urlHost(g[2]), g[2])
		}
		return shown(g[1], g[2])
	})
	s = snipURL.ReplaceAllStringFunc(s, func(u string) string {
		trimmed := strings.TrimRight(u, ".,;:!?")
		return shown(urlHost(trimmed), trimmed) + u[len(trimmed):]
	})
	s = snipHeading.ReplaceAllString(s, "")
	// What is left of a link the snippet cut in two, and emphasis.
	s = strings.NewReplacer("[[", "", "]]", "").Replace(snipEmphasis.Replace(s))
	esc := template.HTMLEscapeString(s)
	return template.HTML(balanceMarks(strings.NewReplacer("«", "<mark>", "»", "</mark>").Replace(esc)))
}

// shown is the visible part of a link, marked when only its hidden part
// had a match.
func shown(visible, hidden string) string {
	if strings.Contains(visible, "«") || !strings.Contains(hidden, "«") {
		return visible
	}
	return "«" + snipMarks.Replace(visible) + "»"
}

// urlHost is the host of a URL ("example.com"), or the URL without its
// marks when it has none.
func urlHost(u string) string {
	u = snipMarks.Replace(u)
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	return strings.TrimPrefix(p.Host, "www.")
}

// balanceMarks closes a <mark> a snippet cut before its end, and drops a
// </mark> without its start, so the page's markup stays whole.
func balanceMarks(h string) string {
	var b strings.Builder
	open := false
	for h != "" {
		switch {
		case strings.HasPrefix(h, "<mark>"):
			if !open {
				b.WriteString("<mark>")
			}
			open, h = true, h[len("<mark>"):]
		case strings.HasPrefix(h, "</mark>"):
			if open {
				b.WriteString("</mark>")
			}
			open, h = false, h[len("</mark>"):]
		default:
			i := strings.IndexByte(h[1:], '<')
			if i < 0 {
				i = len(h) - 1
			}
			b.WriteString(h[:i+1])
			h = h[i+1:]
		}
	}
	if open {
		b.WriteString("</mark>")
	}
	return b.String()
}
