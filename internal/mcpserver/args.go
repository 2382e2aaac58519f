package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// decodeArgs checks raw tool arguments against the tool's input schema and
// decodes them into dst. Every violation is an INVALID_PARAMS error that
// names the argument: an unknown key, a wrong type (null included), a value
// outside its enum or range, a missing required argument. Absent or empty
// arguments are an empty object.
func decodeArgs(raw []byte, s *schema, dst any) error {
	return decodeArgsAt(raw, s, dst, "")
}

// decodeArgsAt is decodeArgs for arguments nested at a path, such as
// "changes[2].arguments".
func decodeArgsAt(raw []byte, s *schema, dst any, at string) (err error) {
	defer func() {
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = argHint(s, at)
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
		return argError(at, "arguments are not valid JSON: %v", err)
	}
	v, err = validate(s, v, at)
	if err != nil {
		return err
	}
	// Decode what was checked, whole numbers written as integers.
	if raw, err = json.Marshal(v); err != nil {
		return argError(at, "%v", err)
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		// The schema admitted what the struct cannot hold: a number out of
		// the Go type's range, for instance.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return argError(join(at, te.Field), "cannot hold %s", te.Value)
		}
		return argError(at, "%v", err)
	}
	return nil
}

// validate checks v against s and returns it with whole numbers of integer
// arguments in integer form (3.0 becomes 3). at is the argument's path, ""
// at the top.
func validate(s *schema, v any, at string) (_ any, err error) {
	defer func() {
		var e *wiki.Error
		if errors.As(err, &e) && e.Hint == "" {
			e.Hint = argHint(s, at)
		}
	}()
	if v == nil {
		if s.Nullable || s.Type == "" {
			return nil, nil
		}
		return nil, argError(at, "must be %s, not null", typeName(s.Type)).
			WithHint("leave the argument out instead of sending null")
	}
	switch s.Type {
	case "":
		return v, nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return nil, wrongType(s, v, at)
		}
		if s.Enum != nil && !slices.Contains(s.Enum, str) {
			return nil, argError(at, "must be one of %s, not %q", strings.Join(s.Enum, ", "), str)
		}
		if s.MinLength != nil && len([]rune(str)) < *s.MinLength {
			return nil, argError(at, "must not be empty")
		}
		if max := maxLength(s); max >= 0 && len(str) > max {
			return nil, argError(at, "is %d bytes long, and the limit is %d", len(str), max)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return nil, wrongType(s, v, at)
		}
	case "integer", "number":
		return validateNumber(s, v, at)
	case "array":
		items, ok := v.([]any)
		if !ok {
			return nil, wrongType(s, v, at)
		}
		if s.MinItems != nil && len(items) < *s.MinItems {
			return nil, argError(at, "needs at least %d items, not %d", *s.MinItems, len(items))
		}
		if max := maxItemsOf(s); len(items) > max {
			return nil, argError(at, "takes at most %d items, not %d", max, len(items))
		}
		if s.Items != nil {
			for i, it := range items {
				var err error
				if items[i], err = validate(s.Items, it, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return nil, err
				}
			}
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, wrongType(s, v, at)
		}
		return m, validateObject(s, m, at)
	}
	return v, nil
}

func validateNumber(s *schema, v any, at string) (any, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, wrongType(s, v, at)
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, argError(at, "%s is out of range", n)
	}
	if s.Type == "integer" {
		if f != math.Trunc(f) {
			return nil, argError(at, "must be a whole number, not %s", n)
		}
		if math.Abs(f) > 1<<53 {
			return nil, argError(at, "%s is out of range", n)
		}
		v = json.Number(strconv.FormatInt(int64(f), 10))
	}
	if s.Min != nil && f < *s.Min {
		return nil, argError(at, "must be at least %s, not %s", fmtNum(*s.Min), n)
	}
	if s.ExclusiveMin != nil && f <= *s.ExclusiveMin {
		return nil, argError(at, "must be more than %s, not %s", fmtNum(*s.ExclusiveMin), n)
	}
	if s.Max != nil && f > *s.Max {
		return nil, argError(at, "must be at most %s, not %s", fmtNum(*s.Max), n)
	}
	return v, nil
}

// validateObject checks an object's keys and values, replacing the values
// in m with their checked form.
// Limits of arguments whose schema sets none, checked before any work:
// a string (a path, a name, a query) of maxString bytes, a list of
// maxItems items, a free-form object of maxItems keys. Note text
// (noMaxLength) is bounded by the request and the wiki's note size.
const (
	maxString   = 4096
	maxItems    = 1000
	noMaxLength = -1
)

func maxLength(s *schema) int {
	if s.MaxLength != nil {
		return *s.MaxLength
	}
	return maxString
}

func maxItemsOf(s *schema) int {
	if s.MaxItems != nil {
		return *s.MaxItems
	}
	return maxItems
}

func validateObject(s *schema, m map[string]any, at string) error {
	if s.Open && len(m) > maxItems {
		return argError(at, "takes at most %d keys, not %d", maxItems, len(m))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys) // report the first problem deterministically
	for _, k := range keys {
		p := s.prop(k)
		var err error
		switch {
		case p != nil:
			if m[k], err = validate(p.Schema, m[k], join(at, k)); err != nil {
				return err
			}
		case s.Values != nil:
			if m[k], err = validate(s.Values, m[k], join(at, k)); err != nil {
				return err
			}
		case !s.Open:
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
	}
	for _, p := range s.Props {
		if _, ok := m[p.Name]; p.Required && !ok {
			return wiki.Errorf(wiki.CodeInvalidParams, "missing required argument %q", join(at, p.Name)).
				WithHint("%s", describeProp(p))
		}
	}
	return nil
}

func describeProp(p prop) string {
	if p.Schema.Description == "" {
		return p.Name + " is " + typeName(p.Schema.Type)
	}
	return p.Name + ": " + p.Schema.Description
}

func wrongType(s *schema, v any, at string) *wiki.Error {
	return argError(at, "must be %s, not %s", typeName(s.Type), jsonKind(v))
}

// argHint says what the argument at path at, described by s, takes.
func argHint(s *schema, at string) string {
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

// argError is an INVALID_PARAMS error about the argument at path at.
func argError(at, format string, args ...any) *wiki.Error {
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
