package note

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/wikierr"

	"gopkg.in/yaml.v3"
)

// metaEditor collects the byte edits of one UpdateMetadata call.
type metaEditor struct {
	src []byte
	b   *fmBlock // nil when the note has no frontmatter
	// eol is the file's line ending, indent the top-level key indentation,
	// compact whether block lists sit at the key's indentation.
	eol, indent string
	compact     bool

	splices []metaSplice
	added   []string // new entries, appended at the end of the block

	// What the result must read back as, checked by verify.
	want     map[string]any
	gone     map[string]bool
	wantList map[string]metaListWant
}

// metaSplice replaces src[start:end] with text.
type metaSplice struct {
	start, end int
	text       string
}

// metaListWant is what a tags or aliases key must read back as.
type metaListWant struct {
	names []string
	tags  bool
}

func newMetaEditor(src []byte, b *fmBlock) (*metaEditor, error) {
	ed := &metaEditor{
		src: src, b: b, eol: "\n",
		want: map[string]any{}, gone: map[string]bool{}, wantList: map[string]metaListWant{},
	}
	if b == nil {
		if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
			ed.eol = "\r\n"
		}
		return ed, nil
	}
	if err := b.checkLayout(); err != nil {
		return nil, err
	}
	ed.eol = b.eol
	if b.root != nil && len(b.root.Content) > 0 {
		ed.indent, _ = b.keyIndent(b.root.Content[0])
	}
	ed.compact = b.compactLists()
	return ed, nil
}

// apply turns the plan into edits, after checking that no key is changed
// twice.
func (ed *metaEditor) apply(p *metaPlan) error {
	tagKey, _ := ed.b.firstKey(fmTagKeys)
	if tagKey == "" {
		tagKey = fmTagKeys[0]
	}
	aliasKey, _ := ed.b.firstKey(fmAliasKeys)
	if aliasKey == "" {
		aliasKey = fmAliasKeys[0]
	}
	changeTags := p.replaceTags || len(p.addTags) > 0 || len(p.removeTags) > 0

	by := map[string][]string{}
	if p.title != nil {
		by["title"] = append(by["title"], "title")
	}
	if changeTags {
		by[tagKey] = append(by[tagKey], "tags")
	}
	if p.setAliases {
		by[aliasKey] = append(by[aliasKey], "aliases")
	}
	for _, k := range p.setKeys {
		by[k] = append(by[k], "set")
	}
	for _, k := range p.unset {
		by[k] = append(by[k], "unset")
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if len(by[k]) > 1 {
			return wikierr.Errorf(wikierr.CodeInvalidParams, "key %q is changed twice (%s)", k, strings.Join(by[k], " and "))
		}
	}

	if p.title != nil {
		if err := ed.set("title", p.title); err != nil {
			return err
		}
	}
	if changeTags {
		if err := ed.editTags(tagKey, p); err != nil {
			return err
		}
	}
	if p.setAliases {
		if err := ed.editAliases(aliasKey, p.aliases); err != nil {
			return err
		}
	}
	for _, k := range p.setKeys {
		if err := ed.set(k, p.set[k]); err != nil {
			return err
		}
	}
	for _, k := range p.unset {
		ed.unset(k)
	}
	return nil
}

// existing returns the entry for key, or nil when the block lacks it.
func (ed *metaEditor) existing(key string) *fmEntry {
	i, _ := ed.b.value(key)
	if i < 0 {
		return nil
	}
	return ed.b.entryAt(i)
}

// set gives key the value val, in place or as a new entry.
func (ed *metaEditor) set(key string, val *yaml.Node) error {
	e := ed.existing(key)
	text, err := ed.render(key, e, val, ed.compact)
	if err != nil {
		return err
	}
	got, err := readYAMLEntry(text)
	if err != nil {
		return err
	}
	ed.want[key] = got
	if e == nil {
		ed.added = append(ed.added, text)
		return nil
	}
	if reflect.DeepEqual(ed.b.fm.Properties[key], got) {
		return nil // same value already: keep its bytes
	}
	ed.splices = append(ed.splices, metaSplice{e.start, e.end, text})
	return nil
}

// unset removes key's lines; a missing key is left alone.
func (ed *metaEditor) unset(key string) {
	ed.gone[key] = true
	if e := ed.existing(key); e != nil {
		ed.splices = append(ed.splices, metaSplice{e.start, e.end, ""})
	}
}

// render writes the entry for key with value val. An existing entry keeps
// its key bytes and, when it stays on one line, its line comment.
func (ed *metaEditor) render(key string, e *fmEntry, val *yaml.Node, compact bool) (string, error) {
	prefix, indent := "", ed.indent
	if e != nil {
		prefix, indent = e.prefix, e.indent
		if c := e.lineComment(); c != "" && yamlSingleLine(val) {
			v := *val
			v.LineComment = c
			val = &v
		}
	}
	if prefix == "" {
		kt, err := yamlKeyText(key)
		if err != nil {
			return "", wikierr.Errorf(wikierr.CodeInvalidParams, "%v", err)
		}
		prefix = indent + kt + ":"
	}
	text, err := renderYAMLEntry(prefix, indent, val, compact, ed.eol)
	if err != nil {
		return "", wikierr.Errorf(wikierr.CodeInvalidParams, "key %q: %v", key, err)
	}
	return text, nil
}

// readYAMLEntry decodes a rendered "key: value" entry to the value the parser
// will see.
func readYAMLEntry(text string) (any, error) {
	b := &fmBlock{src: []byte(text), fm: &Frontmatter{}, closeStart: len(text)}
	b.lines = yamlLines(b.src, 0, len(text))
	n := parseYAMLText(b.src)
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		return nil, wikierr.Errorf(wikierr.CodeInternal, "update metadata: written entry %q does not read back", text)
	}
	v, err := b.toValue(n.Content[1], 1)
	if err != nil {
		return nil, wikierr.Errorf(wikierr.CodeInternal, "update metadata: written entry %q does not read back: %v", text, err)
	}
	return v, nil
}

// output applies the edits to src.
func (ed *metaEditor) output() []byte {
	if len(ed.splices) == 0 && len(ed.added) == 0 {
		return ed.src
	}
	if ed.b == nil {
		at := bomLen(ed.src)
		var out bytes.Buffer
		out.Grow(len(ed.src) + 64)
		out.Write(ed.src[:at])
		out.WriteString("---" + ed.eol)
		for _, a := range ed.added {
			out.WriteString(a)
		}
		out.WriteString("---" + ed.eol)
		out.Write(ed.src[at:])
		return out.Bytes()
	}
	sps := slices.Clone(ed.splices)
	sort.SliceStable(sps, func(i, j int) bool { return sps[i].start < sps[j].start })
	if len(ed.added) > 0 {
		sps = append(sps, metaSplice{ed.b.closeStart, ed.b.closeStart, strings.Join(ed.added, "")})
	}
	var out bytes.Buffer
	out.Grow(len(ed.src) + 64)
	at := 0
	for _, s := range sps {
		out.Write(ed.src[at:s.start])
		out.WriteString(s.text)
		at = s.end
	}
	out.Write(ed.src[at:])
	return out.Bytes()
}

// verify reads the result back: it must parse, keep the body's bytes, hold
// the changed keys as intended and every other key unchanged. A failure is
// a bug here, reported as CodeInternal rather than written.
func (ed *metaEditor) verify(out []byte) error {
	fail := func(format string, args ...any) error {
		return wikierr.Errorf(wikierr.CodeInternal, "update metadata: the changed frontmatter does not read back: %s", fmt.Sprintf(format, args...))
	}
	b2, err := scanFrontmatter(out)
	switch {
	case err != nil:
		return fail("%v", err)
	case b2 == nil:
		return fail("no frontmatter")
	}
	bodyStart := bomLen(ed.src)
	if ed.b != nil {
		bodyStart = ed.b.fm.End
	}
	if !bytes.Equal(out[b2.fm.End:], ed.src[bodyStart:]) {
		return fail("the body changed")
	}
	for k, v := range ed.want {
		if got, ok := b2.fm.Properties[k]; !ok || !reflect.DeepEqual(got, v) {
			return fail("key %q is %#v, want %#v", k, got, v)
		}
	}
	for k := range ed.gone {
		if _, ok := b2.fm.Properties[k]; ok {
			return fail("key %q is still there", k)
		}
	}
	for k, w := range ed.wantList {
		var got []string
		if _, v := b2.value(k); v != nil {
			got = fmListNames(v, w.tags)
		}
		if !slices.Equal(got, w.names) {
			return fail("key %q lists %q, want %q", k, got, w.names)
		}
	}
	if ed.b != nil {
		for k, v := range ed.b.fm.Properties {
			_, changed := ed.want[k]
			_, listed := ed.wantList[k]
			if changed || listed || ed.gone[k] {
				continue
			}
			if got, ok := b2.fm.Properties[k]; !ok || !reflect.DeepEqual(got, v) {
				return fail("untouched key %q changed", k)
			}
		}
	}
	return nil
}
