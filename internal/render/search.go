package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// Search renders a page of search results: each note with its tags, dates
// and the lines that match. It says that no note was found only when every
// note was searched: a scan that was not (see wiki.ScanInfo) says how far
// it read instead.
func Search(query string, res *wiki.SearchResult) string {
	var b Builder
	if len(res.Results) == 0 {
		if sc := res.Scan; sc != nil && !sc.Complete {
			b.Line("Not found yet: the search index is being built, and this answer read %d of %s and searched %d without a match, which does not mean that no note matches. Search again: each search reads on from where the last stopped, and once {status} shows the index built, a search covers every note.",
				sc.Read, Plural(sc.Notes, "note"), sc.Searched)
			return b.String()
		}
		if query == "" {
			b.Line("No notes found.")
		} else {
			b.Line("No notes found matching %q.", query)
		}
		scanNote(&b, res)
		return b.String()
	}
	if res.QuestionWords > 0 {
		b.Line("Read as a question of %s: notes with all of them first, then notes with most of them.", Plural(res.QuestionWords, "word"))
	}
	b.Line("Found %s (showing %d):", Plural(res.Total, "note"), len(res.Results))
	for _, h := range res.Results {
		b.Line("")
		head := fmt.Sprintf("- %s (%s)", h.Title, h.Path)
		if res.QuestionWords > 0 && h.Matched < res.QuestionWords {
			head += fmt.Sprintf(" · %d of %d words", h.Matched, res.QuestionWords)
		}
		if len(h.Tags) > 0 {
			head += " · tags: " + strings.Join(h.Tags, ", ")
		}
		var modified *time.Time
		if !h.Modified.IsZero() {
			modified = &h.Modified
		}
		if d := datesText(h.Created, h.CreatedSource, modified, h.ModifiedSource); d != "" {
			head += " · " + d
		}
		b.Line("%s", head)
		for _, sn := range h.Snippets {
			b.Line("  %d: %s", sn.Line, oneLine(sn.Text))
		}
	}
	b.Line("")
	switch {
	case res.NextCursor != "":
		b.Line("More results: pass {cursor} %q.", res.NextCursor)
	case res.Scan == nil:
		b.Line("No more results.")
	}
	scanNote(&b, res)
	if res.Mode != "" && res.Mode != wiki.SearchText || res.Fallback != "" {
		b.Line("Ranked by: %s.", res.Mode)
	}
	semanticNotes(&b, res)
	return b.String()
}

// scanNote says that a search answered from a scan while the index is
// built, and how much of the wiki it searched.
func scanNote(b *Builder, res *wiki.SearchResult) {
	sc := res.Scan
	switch {
	case sc == nil || sc.Notes == 0:
	case sc.Complete:
		b.Line("Note: the search index is being built, so every note was read for this answer; later searches rank by the whole index.")
	default:
		b.Line("Note: the search index is being built, so this answer searched the %d notes that hold most of the query's words, of %s (%d read for its words so far): other notes may match too; once {status} shows the index built, a search covers every note.",
			sc.Searched, Plural(sc.Notes, "note"), sc.Read)
	}
}

// Related renders the notes nearest a note by meaning.
func Related(notePath string, res *wiki.SearchResult) string {
	var b Builder
	if len(res.Results) == 0 {
		b.Line("No notes related to %s.", notePath)
	} else {
		b.Line("Notes related to %s, nearest first:", notePath)
		for _, h := range res.Results {
			b.Line("- %s (%s) · similarity %.2f", h.Title, h.Path, h.Score)
			for _, sn := range h.Snippets {
				b.Line("  %d: %s", sn.Line, oneLine(sn.Text))
			}
		}
	}
	semanticNotes(&b, res)
	return b.String()
}

// semanticNotes says which mode answered a search by meaning, why it fell
// back, and what is not embedded yet.
func semanticNotes(b *Builder, res *wiki.SearchResult) {
	if res.Fallback != "" {
		b.Line("Note: %s", res.Fallback)
	}
	switch {
	case res.Unembedded > 0 && res.Static:
		b.Line("Note: the model has embedded %d of %s (%s); the other %d are ranked by word vectors until it has; {status} shows the progress.",
			res.Embedded, Plural(res.Embedded+res.Unembedded, "note"), percent(res.Embedded, res.Embedded+res.Unembedded), res.Unembedded)
	case res.Unembedded > 0:
		b.Line("Note: %s not embedded yet, so not ranked by meaning; {status} shows the progress.", Plural(res.Unembedded, "note"))
	}
}

// percent says n of total as a whole percentage.
func percent(n, total int) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%d%%", n*100/total)
}

// rate says a rate with a figure after the point below 10.
func rate(r float64) string {
	if r < 10 {
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.0f", r)
}

// SemanticStatus is the status's line on semantic search.
func SemanticStatus(st wiki.SemanticStatus) string {
	if !st.Enabled {
		return ""
	}
	line := fmt.Sprintf("Semantic search: %s (%s), %s", st.Model, st.Provider, Plural(st.Notes, "note"))
	if st.Unembedded > 0 {
		line += fmt.Sprintf(", %d not embedded yet (%s waiting", st.Unembedded, Plural(st.Pending, "chunk"))
		if st.Rate > 0 {
			line += fmt.Sprintf(", %s chunks a second", rate(st.Rate))
			if st.ETASeconds > 0 {
				line += ", about " + (time.Duration(st.ETASeconds) * time.Second).String() + " to go"
			}
		}
		line += ")"
		if st.Static != "" {
			line += fmt.Sprintf("; until then they are ranked by %s", st.Static)
		}
	} else {
		line += ", all embedded"
	}
	if st.Unread > 0 {
		line += fmt.Sprintf("; %d the model cannot read (another language, or code), found by text only", st.Unread)
	}
	if st.Error != "" {
		line += "; last error: " + st.Error
	}
	return line
}

// Context renders gathered context: each section with where it comes
// from, then the notes that matched but did not fit.
func Context(res *wiki.ContextResult) string {
	var b Builder
	switch sc := res.Scan; {
	case len(res.Sections) == 0 && sc != nil && !sc.Complete:
		b.Line("Not found yet (query: %s): the search index is being built, and this answer read %d of %s and searched %d without a match, which does not mean that no note answers. Ask again: each search reads on from where the last stopped, and once {status} shows the index built, every note is searched.",
			res.Query, sc.Read, Plural(sc.Notes, "note"), sc.Searched)
		return b.String()
	case len(res.Sections) == 0:
		b.Line("No sections found (query: %s).", res.Query)
	default:
		b.Line("%s, about %d of %d tokens (query: %s):", Plural(len(res.Sections), "section"), res.Tokens, res.Budget, res.Query)
	}
	for _, s := range res.Sections {
		b.Line("")
		where := fmt.Sprintf("%s, lines %d-%d", s.Path, s.StartLine, s.EndLine)
		if s.Heading != "" {
			where += " · " + s.Heading
		}
		b.Line("%s · version %s", where, s.Version)
		for _, l := range strings.Split(s.Text, "\n") {
			b.Line("  %s", l)
		}
		if len(s.Links) > 0 {
			b.Line("  links to: %s", strings.Join(s.Links, ", "))
		}
	}
	if len(res.More) > 0 {
		b.Line("")
		paths := make([]string, len(res.More))
		for i, m := range res.More {
			paths[i] = m.Path
		}
		b.Line("Also matched: %s.", strings.Join(paths, ", "))
	}
	return b.String()
}

// List renders a folder: the note at its path, its folders and a page of
// its notes.
func List(res *wiki.ListResult) string {
	var b Builder
	where := res.Path + "/"
	if res.Path == "" {
		where = "/ (the root)"
	}
	b.Line("Browsing: %s", where)
	if res.Note != nil {
		b.Line("")
		b.Line("Note at this path:")
		b.Line("%s", summaryLine(*res.Note))
	}
	if len(res.Folders) > 0 {
		b.Line("")
		b.Line("Folders:")
		for _, f := range res.Folders {
			b.Line("- %s/ (%s)", f.Path, Plural(f.Notes, "note"))
		}
	}
	if len(res.Notes) > 0 {
		b.Line("")
		b.Line("Notes (%d of %d):", len(res.Notes), res.Total)
		for _, n := range res.Notes {
			b.Line("%s", summaryLine(n))
		}
	}
	if res.Note == nil && len(res.Folders) == 0 && len(res.Notes) == 0 {
		b.Line("No folders or notes here.")
	}
	if res.NextCursor != "" {
		b.Line("More notes: pass {cursor} %q.", res.NextCursor)
	}
	return b.String()
}

func summaryLine(n wiki.NoteSummary) string {
	line := fmt.Sprintf("- %s (%s)", n.Title, n.Path)
	if d := datesText(n.Created, n.CreatedSource, n.Modified, n.ModifiedSource); d != "" {
		line += " · " + d
	}
	if len(n.Tags) > 0 {
		line += " · tags: " + strings.Join(n.Tags, ", ")
	}
	return line
}

// Tags renders a page of the tags in use, each with its count of notes.
func Tags(tags []wiki.TagCount, total int, nextCursor string) string {
	var b Builder
	if total == 0 {
		b.Line("No tags in use yet.")
		return b.String()
	}
	b.Line("Tags in use (%d of %d):", len(tags), total)
	for _, t := range tags {
		b.Line("- %s (%s)", t.Tag, Plural(t.Count, "note"))
	}
	if nextCursor != "" {
		b.Line("More tags: pass {cursor} %q.", nextCursor)
	}
	return b.String()
}

// Grep renders the lines that match pattern, as path:line: text.
func Grep(pattern string, res *wiki.GrepResult) string {
	var b Builder
	if len(res.Matches) == 0 {
		b.Line("No line matches %q.", pattern)
		return b.String()
	}
	b.Line("%s match %q:", Plural(len(res.Matches), "line"), pattern)
	for _, m := range res.Matches {
		b.Line("%s:%d: %s", m.Path, m.Line, m.Text)
	}
	if res.Truncated {
		b.Line("More lines match: raise {limit} (at most 1000) or narrow the folder or pattern.")
	}
	return b.String()
}

// Resolve renders the notes each name resolves to, best first.
func Resolve(res *wiki.ResolveResult) string {
	var b Builder
	for _, r := range res.Results {
		if !r.Exists {
			b.Line("%q → no note", r.Name)
			continue
		}
		for i, m := range r.Matches {
			lead := fmt.Sprintf("%q →", r.Name)
			if i > 0 {
				lead = "   or"
			}
			b.Line("%s %s (%s; %s, score %.2f)", lead, m.Path, m.Title, m.MatchedBy, m.Score)
		}
	}
	return b.String()
}

// Random renders a note picked at random: its title, path and tags, then
// the start of its body.
func Random(res *wiki.RandomResult) string {
	var b Builder
	b.Line("Random note: %s (%s) · tags: %s", res.Title, res.Path, tagList(res.Tags))
	b.Line("---")
	b.WriteString(res.Excerpt)
	return b.String()
}
