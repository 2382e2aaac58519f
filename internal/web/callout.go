package web

import (
	"regexp"
	"strings"
)

// calloutStart matches the start of an Obsidian callout as goldmark
// renders it: a blockquote whose first line is "[!type]", folded or not
// ("+" or "-"), then its title, if any.
var calloutStart = regexp.MustCompile(`<blockquote>\n<p>\[!([A-Za-z][\w-]*)\]([+-]?) ?(.*?)(\n|</p>\n)`)

// callouts renders Obsidian's callouts in a note's HTML as titled boxes,
// "> [!tip]- Read this" as a box titled "Read this", one without a title
// as its type ("Tip"). A folded callout is shown open: a reviewer reads
// it all. The title is goldmark's HTML, already escaped.
func callouts(html string) string {
	return calloutStart.ReplaceAllStringFunc(html, func(m string) string {
		g := calloutStart.FindStringSubmatch(m)
		kind, title := strings.ToLower(g[1]), strings.TrimSpace(g[3])
		if title == "" {
			title = strings.ToUpper(kind[:1]) + kind[1:]
		}
		out := `<blockquote class="callout callout-` + calloutColour(kind) + `"><p class="callout-title">` + title + "</p>\n"
		if g[4] == "\n" {
			out += "<p>" // the first paragraph goes on after the title line
		}
		return out
	})
}

// calloutColour groups Obsidian's callout types by the colour they are
// drawn in.
func calloutColour(kind string) string {
	switch kind {
	case "tip", "hint", "important", "success", "check", "done":
		return "green"
	case "warning", "caution", "attention", "question", "help", "faq":
		return "orange"
	case "danger", "error", "failure", "fail", "missing", "bug":
		return "red"
	case "quote", "cite", "example":
		return "grey"
	}
	return "blue"
}
