package note

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/wikierr"

	"gopkg.in/yaml.v3"
)

// metaListStyle is how a tags or aliases value is written.
type metaListStyle int

const (
	metaListAbsent metaListStyle = iota // missing, null, or not a list or string
	metaListBlock                       // "- a" lines
	metaListFlow                        // [a, b]
	metaListString                      // a, b   or   a b
)

func styleOf(v *yaml.Node) metaListStyle {
	switch {
	case v == nil:
		return metaListAbsent
	case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle != 0:
		return metaListFlow
	case v.Kind == yaml.SequenceNode:
		return metaListBlock
	case isYAMLText(v):
		return metaListString
	}
	return metaListAbsent
}

// metaToken is one tag or alias as written.
type metaToken struct {
	raw  string // a list item's value, or a word of a string
	name string // raw trimmed, and for tags without leading '#'s; "" for items that are not names
}

// metaTokens splits a tags or aliases value the way fmListNames reads it.
func metaTokens(v *yaml.Node, tags bool) []metaToken {
	var raws []string
	switch styleOf(v) {
	case metaListBlock, metaListFlow:
		for _, c := range v.Content {
			if isYAMLText(c) {
				raws = append(raws, c.Value)
			} else {
				raws = append(raws, "")
			}
		}
	case metaListString:
		raws = fmSplitNames(v.Value, tags)
	}
	toks := make([]metaToken, len(raws))
	for i, r := range raws {
		name := strings.TrimSpace(r)
		if tags {
			name = strings.TrimLeft(name, "#")
		}
		toks[i] = metaToken{raw: r, name: name}
	}
	return toks
}

func metaTokenNames(toks []metaToken) []string {
	var names []string
	for _, t := range toks {
		if t.name != "" {
			names = append(names, t.name)
		}
	}
	return names
}

// editTags applies Tags, or RemoveTags then AddTags, to key.
func (ed *metaEditor) editTags(key string, p *metaPlan) error {
	e := ed.existing(key)
	var v *yaml.Node
	if e != nil {
		v = e.val
		if !p.replaceTags {
			if err := ed.checkTagList(e); err != nil {
				return err
			}
		}
	}
	toks := metaTokens(v, true)
	var next, nextRaw, added []string
	var removed []int
	if p.replaceTags {
		next, nextRaw = p.tags, p.tags
	} else {
		drop := map[string]bool{}
		for _, t := range p.removeTags {
			drop[strings.ToLower(t)] = true
		}
		have := map[string]bool{}
		for i, t := range toks {
			norm := strings.ToLower(t.name)
			if t.name != "" && drop[norm] {
				removed = append(removed, i)
				continue
			}
			if t.name != "" {
				have[norm] = true
				next, nextRaw = append(next, t.name), append(nextRaw, t.raw)
			}
		}
		for _, a := range p.addTags {
			if norm := strings.ToLower(a); !have[norm] {
				have[norm] = true
				next, nextRaw, added = append(next, a), append(nextRaw, a), append(added, a)
			}
		}
	}
	ed.wantList[key] = metaListWant{names: next, tags: true}
	if slices.Equal(next, metaTokenNames(toks)) {
		return nil
	}
	if e == nil {
		return ed.addList(key, next)
	}
	if styleOf(v) == metaListBlock && !p.replaceTags && len(removed)+len(added) > 0 && len(removed) < len(toks)+len(added) {
		if ok, err := ed.editItems(e, removed, added); ok || err != nil {
			return err
		}
	}
	return ed.rewriteList(e, nextRaw, true)
}

// checkTagList refuses to add or remove tags in a value that is not a list
// of scalars or a string: a mapping (a set, "!!set {a, b}", is one) or a
// list holding lists or mappings. Those would be rewritten as a new list
// that drops what they hold; replacing all tags, or fixing the value by
// hand, is the caller's call.
func (ed *metaEditor) checkTagList(e *fmEntry) error {
	what := ""
	switch v := e.val; v.Kind {
	case yaml.MappingNode:
		what = yamlKindName(v)
	case yaml.SequenceNode:
		for i, it := range v.Content {
			if it.Kind != yaml.ScalarNode {
				what = fmt.Sprintf("a list whose item %d is %s", i+1, yamlKindName(it))
				break
			}
		}
	}
	if what == "" {
		return nil
	}
	line := ed.b.fileLine(e.line)
	return &wikierr.Error{
		Code: wikierr.CodeInvalidParams,
		Message: fmt.Sprintf("frontmatter: line %d: %s is %s, not a list or a string of tags: %q",
			line, e.key, what, strings.TrimSpace(string(ed.b.lineText(e.line)))),
		Hint: "add_tags and remove_tags change a list of tags; replace the whole value with tags, " +
			"or make it a list (tags: [a, b]) in the note",
		Line: line,
	}
}

// editAliases replaces the aliases under key.
func (ed *metaEditor) editAliases(key string, aliases []string) error {
	e := ed.existing(key)
	var cur []string
	if e != nil {
		cur = fmListNames(e.val, false)
	}
	ed.wantList[key] = metaListWant{names: aliases, tags: false}
	if slices.Equal(cur, aliases) {
		return nil
	}
	if e == nil {
		return ed.addList(key, aliases)
	}
	return ed.rewriteList(e, aliases, false)
}

// addList appends key with a block list of names.
func (ed *metaEditor) addList(key string, names []string) error {
	text, err := ed.render(key, nil, metaListNode(names, 0), ed.compact)
	if err != nil {
		return err
	}
	ed.added = append(ed.added, text)
	return nil
}

// rewriteList rewrites entry e to hold names in the style it has: a block
// list, a flow list, or a string (tags joined with the separator already
// used; aliases with ", " unless one holds a comma, which makes a block
// list). No names gives "key: []".
func (ed *metaEditor) rewriteList(e *fmEntry, names []string, tags bool) error {
	style := styleOf(e.val)
	compact := ed.compact
	if c, ok := ed.b.listCompact(e.keyNode, e.val); ok {
		compact = c
	}
	if style == metaListString && !tags && slices.ContainsFunc(names, func(s string) bool { return strings.Contains(s, ",") }) {
		style = metaListBlock
	}
	var val *yaml.Node
	switch {
	case len(names) == 0:
		val = metaListNode(nil, yaml.FlowStyle)
	case style == metaListFlow:
		val = metaListNode(names, yaml.FlowStyle)
	case style == metaListString:
		sep := " "
		switch {
		case !tags || strings.Contains(e.val.Value, ", "):
			sep = ", "
		case strings.Contains(e.val.Value, ","):
			sep = ","
		}
		val = yamlScalar("!!str", strings.Join(names, sep))
		val.Style = e.val.Style & (yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle)
	default:
		val = metaListNode(names, 0)
	}
	text, err := ed.render(e.key, e, val, compact)
	if err != nil {
		return err
	}
	ed.splices = append(ed.splices, metaSplice{e.start, e.end, text})
	return nil
}

func metaListNode(names []string, style yaml.Style) *yaml.Node {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: style}
	for _, s := range names {
		n, err := yamlString(s)
		if err != nil {
			n = yamlScalar("!!str", s) // names are checked UTF-8 already
		}
		seq.Content = append(seq.Content, n)
	}
	return seq
}

// editItems removes and adds the item lines of a block list in place. It
// reports false, without changing anything, when an item does not sit on
// its own "- " line, so that the caller rewrites the list instead.
func (ed *metaEditor) editItems(e *fmEntry, removed []int, added []string) (bool, error) {
	b, items := ed.b, e.val.Content
	var dash string
	for _, it := range items {
		line := b.lineText(it.Line)
		n := it.Column - 1
		if n < 0 || n > len(line) || !isDashPrefix(line[:n]) || it.Line <= e.line {
			return false, nil
		}
		dash = string(line[:n])
	}
	var sps []metaSplice
	for _, r := range removed {
		it := items[r]
		limit := e.endLine
		if r+1 < len(items) {
			limit = items[r+1].Line
		}
		want, err := b.toValue(it, 1)
		if err != nil {
			return false, nil
		}
		end := b.minimalEnd(it.Line, limit, func(text []byte) bool {
			n := parseYAMLText(text)
			if n == nil || n.Kind != yaml.SequenceNode || len(n.Content) != 1 {
				return false
			}
			got, err := b.toValue(n.Content[0], 1)
			return err == nil && reflect.DeepEqual(got, want)
		})
		sps = append(sps, metaSplice{b.lineStart(it.Line), b.lineStart(end), ""})
	}
	if len(added) > 0 {
		var sb strings.Builder
		for _, a := range added {
			text, err := yamlItemText(a)
			if err != nil {
				return false, wikierr.Errorf(wikierr.CodeInvalidParams, "tag %q: %v", a, err)
			}
			sb.WriteString(dash + text + ed.eol)
		}
		sps = append(sps, metaSplice{e.end, e.end, sb.String()})
	}
	ed.splices = append(ed.splices, sps...)
	return true, nil
}

// isDashPrefix reports whether p is the start of a block list item line:
// optional indentation, '-', then at least one space or tab.
func isDashPrefix(p []byte) bool {
	i := 0
	for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
		i++
	}
	if i >= len(p) || p[i] != '-' {
		return false
	}
	i++
	if i >= len(p) {
		return false
	}
	for ; i < len(p); i++ {
		if p[i] != ' ' && p[i] != '\t' {
			return false
		}
	}
	return true
}
