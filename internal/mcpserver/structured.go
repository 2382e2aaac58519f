package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// encodeStructured encodes a tool's structured content for its output
// schema out: every null where out declares a list becomes [], and every
// null where it declares a map (an object without properties) becomes {},
// at any depth. Result types leave nil slices nil (Go's zero value), so
// this one place keeps the promise that a list in a result is never null.
// Everything else keeps its bytes.
func encodeStructured(v any, out *schema) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(raw, []byte("null")) {
		return raw, nil
	}
	var b bytes.Buffer
	b.Grow(len(raw) + 16)
	if _, err := fillNulls(raw, 0, out, &b); err != nil {
		return nil, fmt.Errorf("structured content: %w", err)
	}
	return b.Bytes(), nil
}

// errBadJSON is returned by fillNulls for input that json.Marshal cannot
// have written.
var errBadJSON = errors.New("malformed JSON")

// fillNulls copies the JSON value at raw[i], compact as json.Marshal
// writes it, to b, replacing a null that s declares a list or a map, and
// returns the index after the value. s may be nil: the value is copied as
// is.
func fillNulls(raw []byte, i int, s *schema, b *bytes.Buffer) (int, error) {
	if i >= len(raw) {
		return 0, errBadJSON
	}
	if s == nil {
		end, ok := skipValue(raw, i)
		if !ok {
			return 0, errBadJSON
		}
		b.Write(raw[i:end])
		return end, nil
	}
	switch raw[i] {
	case '{':
		b.WriteByte('{')
		i++
		for i < len(raw) && raw[i] != '}' {
			if raw[i] == ',' {
				b.WriteByte(',')
				i++
			}
			end, ok := skipString(raw, i)
			if !ok || end >= len(raw) || raw[end] != ':' {
				return 0, errBadJSON
			}
			key := string(raw[i+1 : end-1])
			if bytes.IndexByte(raw[i:end], '\\') >= 0 {
				if err := json.Unmarshal(raw[i:end], &key); err != nil {
					return 0, errBadJSON
				}
			}
			b.Write(raw[i : end+1])
			var err error
			if i, err = fillNulls(raw, end+1, s.child(key), b); err != nil {
				return 0, err
			}
		}
		if i >= len(raw) {
			return 0, errBadJSON
		}
		b.WriteByte('}')
		return i + 1, nil
	case '[':
		b.WriteByte('[')
		i++
		for i < len(raw) && raw[i] != ']' {
			if raw[i] == ',' {
				b.WriteByte(',')
				i++
			}
			var err error
			if i, err = fillNulls(raw, i, s.Items, b); err != nil {
				return 0, err
			}
		}
		if i >= len(raw) {
			return 0, errBadJSON
		}
		b.WriteByte(']')
		return i + 1, nil
	case 'n':
		switch {
		case s.Nullable:
			b.WriteString("null")
		case s.Type == "array":
			b.WriteString("[]")
		case s.Type == "object" && len(s.Props) == 0:
			b.WriteString("{}") // a map; a nil record stays null
		default:
			b.WriteString("null")
		}
		return i + len("null"), nil
	}
	end, ok := skipValue(raw, i)
	if !ok {
		return 0, errBadJSON
	}
	b.Write(raw[i:end])
	return end, nil
}

// child is the schema of an object's property k: the property's own, else
// that of every value of an open map; nil when s says nothing about it.
func (s *schema) child(k string) *schema {
	if s == nil {
		return nil
	}
	if p := s.prop(k); p != nil {
		return p.Schema
	}
	return s.Values
}
