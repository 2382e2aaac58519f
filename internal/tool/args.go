package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/wiki"
)

// DecodeArgs checks raw tool arguments against the tool's input schema and
// decodes them into dst, a pointer to a zero value. Every violation is an
// INVALID_PARAMS error that names the argument: an unknown key, a wrong
// type (null included), a value outside its enum or range, a missing
// required argument. Absent or empty arguments are an empty object.
func DecodeArgs(raw []byte, s *Schema, dst any) error {
	return DecodeArgsAt(raw, s, dst, "")
}

// DecodeArgsAt is decodeArgs for arguments nested at a path, such as
// "changes[2].arguments".
func DecodeArgsAt(raw []byte, s *Schema, dst any, at string) (err error) {
	defer func() {
		if err == nil {
			return
		}
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = ArgHint(s, at)
		}
	}()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return ArgError(at, "arguments are not valid JSON: %v", err)
	}
	d := &decoder{root: at, steps: make([]step, 0, 4)}
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		if _, err := d.validate(s, v, reflect.Value{}); err != nil {
			return err
		}
		return d.jsonError(&json.InvalidUnmarshalError{Type: reflect.TypeOf(dst)})
	}
	// The checked value goes into dst as it is checked; what the schema
	// admits but dst cannot hold is reported only if all else is right.
	if _, err := d.validate(s, v, rv.Elem()); err != nil {
		return err
	}
	return d.result()
}

// Checked returns raw arguments checked against s, as JSON values
// (numbers as json.Number, whole numbers of integer arguments in integer
// form), or the error DecodeArgsAt returns for them before it decodes
// into a Go value.
func Checked(raw []byte, s *Schema, at string) (_ any, err error) {
	defer func() {
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = ArgHint(s, at)
		}
	}()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, ArgError(at, "arguments are not valid JSON: %v", err)
	}
	return (&decoder{root: at}).validate(s, v, reflect.Value{})
}

// validate checks v, the argument at d.path(), against s and returns it
// with whole numbers of integer arguments in integer form (3.0 becomes 3);
// a nil s checks nothing. It stores the checked value in dst, unless dst
// is the zero Value.
func (d *decoder) validate(s *Schema, v any, dst reflect.Value) (_ any, err error) {
	if d.stop != nil {
		dst = reflect.Value{}
	}
	if dst.IsValid() {
		var whole *typePlan
		if dst, whole = d.target(v, dst); whole != nil {
			if v, err = d.validate(s, v, reflect.Value{}); err == nil {
				d.storeWhole(whole, v, dst)
			}
			return v, err
		}
	}
	if s == nil || s.Type == "" {
		return v, d.unchecked(v, dst)
	}
	defer func() {
		if err == nil {
			return
		}
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = ArgHint(s, d.path())
		}
	}()
	if v == nil {
		if s.Nullable {
			d.store(nil, dst)
			return nil, nil
		}
		return nil, ArgError(d.path(), "must be %s, not null", typeName(s.Type)).
			WithHint("leave the argument out instead of sending null")
	}
	switch s.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return nil, wrongType(s, v, d.path())
		}
		if s.Enum != nil && !slices.Contains(s.Enum, str) {
			return nil, ArgError(d.path(), "must be one of %s, not %q", strings.Join(s.Enum, ", "), str)
		}
		if s.MinLength != nil && len([]rune(str)) < *s.MinLength {
			return nil, ArgError(d.path(), "must not be empty")
		}
		if max := maxLength(s); max >= 0 && len(str) > max {
			return nil, ArgError(d.path(), "is %d bytes long, and the limit is %d", len(str), max)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return nil, wrongType(s, v, d.path())
		}
	case "integer", "number":
		if v, err = d.validateNumber(s, v); err != nil {
			return nil, err
		}
	case "array":
		items, ok := v.([]any)
		if !ok {
			return nil, wrongType(s, v, d.path())
		}
		return v, d.validateArray(s, items, dst)
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, wrongType(s, v, d.path())
		}
		return v, d.validateObject(s, m, dst)
	}
	return v, d.unchecked(v, dst)
}

// unchecked stores any value in dst, checking nothing.
func (d *decoder) unchecked(v any, dst reflect.Value) error {
	switch v := v.(type) {
	case []any:
		return d.validateArray(nil, v, dst)
	case map[string]any:
		return d.validateObject(nil, v, dst)
	}
	d.store(v, dst)
	return nil
}

// validateArray checks an array's items, replacing them with their checked
// form, and stores them in dst; a nil s checks nothing.
func (d *decoder) validateArray(s *Schema, items []any, dst reflect.Value) error {
	var is *Schema
	if s != nil {
		if s.MinItems != nil && len(items) < *s.MinItems {
			return ArgError(d.path(), "needs at least %s, not %d", render.Plural(*s.MinItems, "item"), len(items))
		}
		if max := maxItemsOf(s); len(items) > max {
			return ArgError(d.path(), "takes at most %d items, not %d", max, len(items))
		}
		is = s.Items
	}
	dst = d.slice(dst, len(items))
	if is == nil && !dst.IsValid() {
		return nil
	}
	depth := len(d.steps)
	for i, it := range items {
		var ed reflect.Value
		if dst.IsValid() {
			ed = dst.Index(i)
		}
		d.steps = append(d.steps, step{index: i})
		var err error
		items[i], err = d.validate(is, it, ed)
		d.steps = d.steps[:depth]
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) validateNumber(s *Schema, v any) (any, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, wrongType(s, v, d.path())
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, ArgError(d.path(), "%s is out of range", n)
	}
	if s.Type == "integer" {
		if f != math.Trunc(f) {
			return nil, ArgError(d.path(), "must be a whole number, not %s", n)
		}
		if math.Abs(f) > 1<<53 {
			return nil, ArgError(d.path(), "%s is out of range", n)
		}
		var buf [24]byte
		if b := strconv.AppendInt(buf[:0], int64(f), 10); string(b) != string(n) {
			v = json.Number(b)
		}
	}
	if s.Min != nil && f < *s.Min {
		return nil, ArgError(d.path(), "must be at least %s, not %s", fmtNum(*s.Min), n)
	}
	if s.ExclusiveMin != nil && f <= *s.ExclusiveMin {
		return nil, ArgError(d.path(), "must be more than %s, not %s", fmtNum(*s.ExclusiveMin), n)
	}
	if s.Max != nil && f > *s.Max {
		return nil, ArgError(d.path(), "must be at most %s, not %s", fmtNum(*s.Max), n)
	}
	return v, nil
}

// Limits of arguments whose schema sets none, checked before any work:
// a string (a path, a name, a query) of maxString bytes, a list of
// maxItems items, a free-form object of maxItems keys. Note text
// (noMaxLength) is bounded by the request and the wiki's note size.
const (
	maxString   = 4096
	maxItems    = 1000
	noMaxLength = -1
)

func maxLength(s *Schema) int {
	if s.MaxLength != nil {
		return *s.MaxLength
	}
	return maxString
}

func maxItemsOf(s *Schema) int {
	if s.MaxItems != nil {
		return *s.MaxItems
	}
	return maxItems
}

// validateObject checks an object's keys and values, replacing the values
// in m with their checked form, and stores them in dst; a nil s checks
// nothing.
func (d *decoder) validateObject(s *Schema, m map[string]any, dst reflect.Value) error {
	if s != nil && s.Open && len(m) > maxItems {
		return ArgError(d.path(), "takes at most %d keys, not %d", maxItems, len(m))
	}
	obj := d.object(dst)
	if s == nil && obj == nil {
		return nil
	}
	var buf [16]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // report the first problem deterministically
	depth := len(d.steps)
	for _, k := range keys {
		var ks *Schema
		if s != nil {
			switch p := s.prop(k); {
			case p != nil:
				ks = p.Schema
			case s.Values != nil:
				ks = s.Values
			case !s.Open:
				return unknownKey(s, k, d.path())
			case s.Unsaid && obj != nil && obj.kind == storeStruct:
				continue // a seed's object ignores the keys it does not list
			}
		}
		d.steps = append(d.steps, step{key: k, index: -1})
		kd := d.member(obj, dst, k)
		var err error
		m[k], err = d.validate(ks, m[k], kd)
		d.done(obj, dst, k, kd)
		d.steps = d.steps[:depth]
		if err != nil {
			return err
		}
	}
	if s == nil {
		return nil
	}
	for _, p := range s.Props {
		if _, ok := m[p.Name]; p.Required && !ok {
			return wiki.Errorf(wiki.CodeInvalidParams, "missing required argument %q", join(d.path(), p.Name)).
				WithHint("%s", describeProp(p))
		}
	}
	return nil
}

// unknownKey is the error for the key k, which s does not name, of the
// object at path at.
func unknownKey(s *Schema, k, at string) error {
	names := make([]string, len(s.Props))
	for i, p := range s.Props {
		names[i] = p.Name
	}
	what := "argument"
	if at != "" {
		what = "key"
	}
	e := wiki.Errorf(wiki.CodeInvalidParams, "unknown %s %q", what, join(at, k))
	if len(names) == 0 {
		return e.WithHint("this takes no arguments")
	}
	return e.WithHint("the known ones are %s", strings.Join(names, ", "))
}

func describeProp(p Prop) string {
	if p.Schema.Description == "" {
		return p.Name + " is " + typeName(p.Schema.Type)
	}
	return p.Name + ": " + p.Schema.Description
}

func wrongType(s *Schema, v any, at string) *wiki.Error {
	return ArgError(at, "must be %s, not %s", typeName(s.Type), jsonKind(v))
}

// ArgHint is the hint of an error about the argument at path at, whose
// schema is s: what the schema says it takes.
func ArgHint(s *Schema, at string) string {
	switch {
	case at == "":
		return "pass the arguments as one JSON object, as the tool's input schema describes"
	case s.Description != "":
		return at + ": " + s.Description
	case s.Enum != nil:
		return "use one of " + strings.Join(s.Enum, ", ")
	}
	return "pass " + at + " as " + typeName(s.Type) + ", as the tool's input schema describes"
}

// ArgError is an INVALID_PARAMS error about the argument at path at.
func ArgError(at, format string, args ...any) *wiki.Error {
	msg := fmt.Sprintf(format, args...)
	if at == "" {
		return wiki.Errorf(wiki.CodeInvalidParams, "%s", msg)
	}
	e := wiki.Errorf(wiki.CodeInvalidParams, "argument %q %s", at, msg)
	e.Details = map[string]any{"argument": at}
	return e
}

func typeName(t string) string {
	switch t {
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "array":
		return "an array"
	case "object":
		return "an object"
	}
	return "a value"
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + string(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
