package semantic

import (
	"path"
	"regexp"
	"strings"
)

// The model reads the text a reader sees, not the markdown that shapes it:
// link brackets, emphasis, list and quote markers, table pipes and HTML
// tags cost tokens and carry no meaning, and tags such as
// <span class="icon-app"> made notes of icons come first for a question
// about icons.
var (
	htmlComment = regexp.MustCompile(`<!--.*?-->|%%.*?%%`)
	htmlTag     = regexp.MustCompile(`</?[A-Za-z][^<>]*>`)
	embedLink   = regexp.MustCompile(`!\[\[([^\[\]|#]*)[^\[\]]*\]\]`)
	wikiLink    = regexp.MustCompile(`\[\[([^\[\]|#]*)(#[^\[\]|]*)?(\|([^\[\]]*))?\]\]`)
	mdImage     = regexp.MustCompile(`!\[([^\[\]]*)\]\([^()]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\[\]]*)\]\([^()]*\)`)
	lineMarker  = regexp.MustCompile(`^\s*(#{1,6}\s+|(>\s*)+(\[![^\]]*\][+-]?\s*)?|([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?)`)
	emphasis    = regexp.MustCompile("\\*\\*|__|~~|==|`+|\\*")
	tableRule   = regexp.MustCompile(`^[\s|:\-]+$`)
	spaces      = regexp.MustCompile(`\s+`)
)

// mediaExt are the extensions of embedded files whose names are not text.
var mediaExt = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".webp": true,
	".bmp": true, ".avif": true, ".pdf": true, ".mp3": true, ".mp4": true, ".webm": true, ".ogg": true, ".wav": true, ".mov": true}

// plainLine returns the words of one markdown line as a reader sees them;
// "" for a line that is only markup (a table rule, a code fence).
func plainLine(l string) string {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || (strings.Contains(t, "-") && tableRule.MatchString(t)) {
		return ""
	}
	l = htmlComment.ReplaceAllString(l, " ")
	l = htmlTag.ReplaceAllString(l, " ")
	l = embedLink.ReplaceAllStringFunc(l, func(m string) string {
		target := strings.TrimSpace(embedLink.FindStringSubmatch(m)[1])
		if mediaExt[strings.ToLower(path.Ext(target))] {
			return " "
		}
		return path.Base(target)
	})
	l = wikiLink.ReplaceAllStringFunc(l, func(m string) string {
		g := wikiLink.FindStringSubmatch(m)
		switch {
		case g[3] != "":
			return g[4]
		case strings.TrimSpace(g[1]) != "":
			return path.Base(strings.TrimSpace(g[1]))
		default:
			return strings.TrimPrefix(g[2], "#")
		}
	})
	l = mdImage.ReplaceAllString(l, "$1")
	l = mdLink.ReplaceAllString(l, "$1")
	l = lineMarker.ReplaceAllString(l, "")
	l = emphasis.ReplaceAllString(l, "")
	l = strings.ReplaceAll(l, "|", " ")
	return strings.TrimSpace(spaces.ReplaceAllString(l, " "))
}

// plainLines returns lines as a reader sees them, without the lines that
// are only markup.
func plainLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if p := plainLine(l); p != "" {
			out = append(out, p)
		}
	}
	return out
}
