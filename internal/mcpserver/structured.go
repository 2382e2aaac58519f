package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// encodeStructured encodes a tool's structured content for its output schema
// out: every null where out declares a list becomes [], and every null
// where it declares a map (an object without properties) becomes {}, at
// any depth. Result types leave
// nil slices nil (Go's zero value), so this one place keeps the promise
// that a list in a result is never null. Keys keep their order.
func encodeStructured(v any, out *schema) (json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(raw, []byte("null")) {
		return raw, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b bytes.Buffer
	b.Grow(len(raw) + 16)
	if err := fillNulls(dec, out, &b); err != nil {
		return nil, fmt.Errorf("structured content: %w", err)
	}
	return b.Bytes(), nil
}

// fillNulls copies the next JSON value of dec to b, replacing a null that
// s declares a list or an object. s may be nil: the value is copied as is.
func fillNulls(dec *json.Decoder, s *schema, b *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			b.WriteByte('{')
			for i := 0; dec.More(); i++ {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := key.(string)
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSON(b, k)
				b.WriteByte(':')
				if err := fillNulls(dec, s.child(k), b); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		case '[':
			var items *schema
			if s != nil {
				items = s.Items
			}
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := fillNulls(dec, items, b); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case nil:
		switch {
		case s == nil || s.Nullable:
			b.WriteString("null")
		case s.Type == "array":
			b.WriteString("[]")
		case s.Type == "object" && len(s.Props) == 0:
			b.WriteString("{}") // a map; a nil record stays null
		default:
			b.WriteString("null")
		}
	case json.Number:
		b.WriteString(tok.String())
	default: // string, bool
		writeJSON(b, tok)
	}
	return nil
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

// writeJSON appends the encoding of a string or a bool, as json.Marshal
// writes it.
func writeJSON(b *bytes.Buffer, v any) {
	enc, _ := json.Marshal(v) // a string or a bool cannot fail
	b.Write(enc)
}
