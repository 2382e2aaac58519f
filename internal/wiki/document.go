package wiki

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// document turns a parsed note into what the index stores, with the
// frontmatter's dates only (see Document.Created).
func document(n *note.Note, f File) Document {
	d := Document{
		Path: n.Path, File: f.Path, Version: f.Blob,
		Title: n.Title, Aliases: n.Aliases,
		Frontmatter: string(n.Raw[:n.BodyStart]),
		Body:        string(n.Raw[n.BodyStart:]), BodyLine: n.BodyLine,
		Tags:       make([]string, len(n.Tags)),
		Properties: properties(n.Properties),
		Created:    n.Created,
		Modified:   n.Modified,
		Links:      linkTargets(n),
	}
	for i, tag := range n.Tags {
		d.Tags[i] = tag.Name
	}
	return d
}

// properties flattens frontmatter values to strings: scalars, and lists of
// scalars. Nested maps are left out.
func properties(props map[string]any) map[string][]string {
	out := make(map[string][]string, len(props))
	for k, v := range props {
		var vals []string
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				if s, ok := scalar(e); ok {
					vals = append(vals, s)
				}
			}
		default:
			if s, ok := scalar(v); ok {
				vals = []string{s}
			}
		}
		if len(vals) > 0 {
			out[strings.ToLower(k)] = vals
		}
	}
	return out
}

func scalar(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(v), true
	}
	return "", false
}

// linkTargets returns the lowercased note paths a note links to: markdown
// links resolved against the note's folder, wikilink targets as written
// (without extension). The link graph resolves titles and aliases later.
func linkTargets(n *note.Note) []string {
	seen := map[string]bool{}
	for _, l := range n.Links {
		if l.Target == "" || l.Kind == note.LinkEmbed && !note.IsMarkdown(l.Target) && path.Ext(l.Target) != "" ||
			l.Kind == note.LinkMarkdown && !note.IsMarkdown(l.Target) {
			continue
		}
		t := l.Target
		if l.Kind == note.LinkMarkdown {
			t = path.Join(path.Dir(n.Path), t)
		}
		if p, _, ok := note.SplitFileName(t); ok {
			t = p
		}
		seen[strings.ToLower(t)] = true
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
