package note

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// maxSetDepth bounds how deeply a value given to Set may nest (and so
// stops a value that contains itself).
const maxSetDepth = 32

// yamlValue turns a JSON-like Go value into a YAML node: nil, strings,
// booleans, numbers (json.Number too), time.Time, slices and arrays, and
// maps with string keys. Whole floats are written as integers; NaN and
// infinities are rejected.
func yamlValue(v any, depth int) (*yaml.Node, error) {
	if depth > maxSetDepth {
		return nil, fmt.Errorf("nests more than %d levels deep", maxSetDepth)
	}
	switch v := v.(type) {
	case nil:
		return yamlScalar("!!null", "null"), nil
	case string:
		return yamlString(v)
	case bool:
		return yamlScalar("!!bool", strconv.FormatBool(v)), nil
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return yamlScalar("!!int", strconv.FormatInt(i, 10)), nil
		}
		f, err := v.Float64()
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", string(v))
		}
		return yamlFloat(f)
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
		return yamlFloat(f)
	case float64:
		return yamlFloat(v)
	case time.Time:
		return yamlScalar("!!timestamp", v.Format(time.RFC3339Nano)), nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return yamlScalar("!!int", strconv.FormatInt(rv.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return yamlScalar("!!int", strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.String:
		return yamlString(rv.String())
	case reflect.Bool:
		return yamlScalar("!!bool", strconv.FormatBool(rv.Bool())), nil
	case reflect.Float32, reflect.Float64:
		return yamlFloat(rv.Float())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return yamlScalar("!!null", "null"), nil
		}
		return yamlValue(rv.Elem().Interface(), depth+1)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return yamlScalar("!!null", "null"), nil
		}
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range rv.Len() {
			c, err := yamlValue(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, c)
		}
		return seq, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys must be strings, not %s", rv.Type().Key())
		}
		if rv.IsNil() {
			return yamlScalar("!!null", "null"), nil
		}
		keys := make([]string, 0, rv.Len())
		for _, k := range rv.MapKeys() {
			keys = append(keys, k.String())
		}
		sort.Strings(keys)
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range keys {
			if !utf8.ValidString(k) {
				return nil, fmt.Errorf("key %q is not valid UTF-8", k)
			}
			c, err := yamlValue(rv.MapIndex(reflect.ValueOf(k).Convert(rv.Type().Key())).Interface(), depth+1)
			if err != nil {
				return nil, err
			}
			m.Content = append(m.Content, yamlScalar("!!str", k), c)
		}
		return m, nil
	}
	return nil, fmt.Errorf("a %T is not a JSON value", v)
}

func yamlScalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// yamlFloat writes whole numbers as integers, so that 3 sent as a JSON
// number stays 3 and not 3.0.
func yamlFloat(f float64) (*yaml.Node, error) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return nil, fmt.Errorf("%v is not a JSON number", f)
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return yamlScalar("!!int", strconv.FormatInt(int64(f), 10)), nil
	}
	return yamlScalar("!!float", strconv.FormatFloat(f, 'g', -1, 64)), nil
}

// yamlString returns a node for a string. A string that YAML reads as a
// date when unquoted ("2024-06-01") is written unquoted: the parser keeps
// it as the string written, and other tools see a date.
func yamlString(s string) (*yaml.Node, error) {
	if !utf8.ValidString(s) {
		return nil, errors.New("not valid UTF-8")
	}
	if isPlainTimestamp(s) {
		return yamlScalar("!!timestamp", s), nil
	}
	return yamlScalar("!!str", s), nil
}

func isPlainTimestamp(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	var doc yaml.Node
	if yaml.Unmarshal([]byte(s), &doc) != nil || len(doc.Content) != 1 {
		return false
	}
	n := doc.Content[0]
	return n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!timestamp" && n.Value == s
}

// encodeYAML renders a node with yaml.v3 (two-space indent, no line
// wrapping). It never panics.
func encodeYAML(n *yaml.Node) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("encode YAML: %v", r)
		}
	}()
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", fmt.Errorf("encode YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("encode YAML: %w", err)
	}
	return buf.String(), nil
}

// yamlKeyText returns how a new key is written: plain when YAML allows it,
// quoted otherwise.
func yamlKeyText(key string) (string, error) {
	out, err := encodeYAML(yamlScalar("!!str", key))
	if err != nil {
		return "", err
	}
	out = strings.TrimSuffix(out, "\n")
	if strings.Contains(out, "\n") {
		return "", fmt.Errorf("key %q does not fit on one line", key)
	}
	return out, nil
}

// yamlItemText returns how a string is written as a list item in block
// style: "a", "'#a'", "\"123\"".
func yamlItemText(s string) (string, error) {
	n, err := yamlString(s)
	if err != nil {
		return "", err
	}
	out, err := encodeYAML(n)
	if err != nil {
		return "", err
	}
	out = strings.TrimSuffix(out, "\n")
	if strings.Contains(out, "\n") {
		return "", fmt.Errorf("%q does not fit on one line", s)
	}
	return out, nil
}

// renderYAMLEntry writes "prefix value" lines for a top-level key. prefix is
// everything up to and including the ':' after the key; indent is the
// key's indentation, added to every following line; compact writes a block
// list with its dashes at the key's indentation instead of two spaces in.
// Lines end with eol.
func renderYAMLEntry(prefix, indent string, val *yaml.Node, compact bool, eol string) (string, error) {
	const placeholder = "k"
	out, err := encodeYAML(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{yamlScalar("!!str", placeholder), val}})
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(out, placeholder+":") {
		return "", fmt.Errorf("unexpected YAML encoding %q", out)
	}
	lines := strings.Split(strings.TrimSuffix(out[len(placeholder)+1:], "\n"), "\n")
	blockSeq := val.Kind == yaml.SequenceNode && val.Style&yaml.FlowStyle == 0 && len(val.Content) > 0
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if compact && blockSeq {
			l = strings.TrimPrefix(l, "  ")
		}
		if l != "" {
			l = indent + l
		}
		lines[i] = l
	}
	return prefix + strings.Join(lines, eol) + eol, nil
}

// yamlSingleLine reports whether a node is written on the key's line, where a
// line comment after it can stay.
func yamlSingleLine(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return !hasYAMLBreak(n.Value)
	case yaml.SequenceNode, yaml.MappingNode:
		return len(n.Content) == 0 || n.Style&yaml.FlowStyle != 0
	}
	return false
}
