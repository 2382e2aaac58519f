package index

import (
	"github.com/wikid/wikid/internal/index/analysis"
	"github.com/wikid/wikid/internal/wiki"
)

// noteLanguage returns the language of a note: the one its frontmatter
// declares, else the one its title and body are written in, else "".
func noteLanguage(d *wiki.Document) string {
	for _, key := range []string{"lang", "language"} {
		for _, v := range d.Properties[key] {
			if code, ok := analysis.Declared(v); ok {
				return code
			}
		}
	}
	return analysis.Detect(d.Title, d.Body)
}
