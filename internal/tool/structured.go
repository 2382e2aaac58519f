package tool

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/wiki"
)

// The wire format of a result is its tool's output schema. The core's
// result types carry no JSON tags: encodeStructured writes a Go value as the
// JSON its schema describes, so the names and the shape a client sees are
// declared in one place, next to the tool.
//
//   - A struct field is the property named by its json tag (the front end's
//     own types) or else by its name in snake_case (CaughtUp is caught_up);
//     the fields of embedded structs are promoted.
//   - A property the schema requires is always written, and so is a field
//     whose json tag has no omitempty; any other field is left out when it
//     holds its zero value.
//   - A nil list is [] and a nil map {}, unless the schema allows null: a
//     list in a result is never null.
//   - A record schema (closed, with properties) writes only the fields it
//     declares: the front end chooses what goes on the wire.
//   - Numbers are rounded to the schema's Digits significant digits, when
//     it has them.
//   - Times are in UTC.
//   - Strings are worded (see words), and written without HTML escapes.
//   - Values the schema says nothing about (free-form frontmatter, error
//     details) are written by the same rules, every field optional.

// EncodeStructured encodes a tool's structured content for its output
// schema out, its strings worded with w.
func EncodeStructured(v any, out *Schema, w wiki.Words) (json.RawMessage, error) {
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	e := encoder{b: (*buf)[:0], words: w}
	err := e.value(reflect.ValueOf(v), out)
	*buf = e.b
	if err != nil {
		return nil, fmt.Errorf("structured content: %w", err)
	}
	return append(json.RawMessage(nil), e.b...), nil
}

// buffers keeps encoding buffers between calls: a result is copied out
// of one at its exact size.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// encoder appends JSON to b, strings worded with words.
type encoder struct {
	b     []byte
	words wiki.Words
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	timeType      = reflect.TypeFor[time.Time]()
)

func (e *encoder) value(v reflect.Value, s *Schema) error {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		if v.IsNil() {
			break
		}
		if v.Kind() == reflect.Pointer && v.Type().Implements(marshalerType) {
			break
		}
		v = v.Elem()
	}
	if !v.IsValid() || (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil() {
		e.null(s)
		return nil
	}
	if v.Type() == timeType {
		// As time.Time.MarshalJSON writes it in UTC, without its
		// allocations: every date on the wire has one form.
		e.b = append(e.b, '"')
		e.b = v.Interface().(time.Time).UTC().AppendFormat(e.b, time.RFC3339Nano)
		e.b = append(e.b, '"')
		return nil
	}
	if v.Type().Implements(marshalerType) || reflect.PointerTo(v.Type()).Implements(marshalerType) && v.CanAddr() {
		m, _ := v.Interface().(json.Marshaler)
		if m == nil {
			m = v.Addr().Interface().(json.Marshaler)
		}
		raw, err := m.MarshalJSON()
		if err != nil {
			return err
		}
		e.b = append(e.b, raw...)
		return nil
	}
	switch v.Kind() {
	case reflect.String:
		e.string(e.words.Say(v.String()))
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if s != nil && s.Digits > 0 {
			f = significant(f, s.Digits)
		}
		return e.float(f, v.Type().Bits())
	case reflect.Slice:
		if v.IsNil() {
			e.null(s)
			return nil
		}
		fallthrough
	case reflect.Array:
		return e.list(v, s)
	case reflect.Map:
		if v.IsNil() {
			e.null(s)
			return nil
		}
		return e.dict(v, s)
	case reflect.Struct:
		return e.object(v, s)
	default:
		return fmt.Errorf("cannot encode a %s", v.Type())
	}
	return nil
}

// null writes what a nil value is where s describes it.
func (e *encoder) null(s *Schema) {
	switch {
	case s == nil || s.Nullable:
		e.b = append(e.b, "null"...)
	case s.Type == "array":
		e.b = append(e.b, "[]"...)
	case s.Type == "object" && len(s.Props) == 0:
		e.b = append(e.b, "{}"...) // a map; a nil record stays null
	default:
		e.b = append(e.b, "null"...)
	}
}

func (e *encoder) list(v reflect.Value, s *Schema) error {
	var items *Schema
	if s != nil {
		items = s.Items
	}
	e.b = append(e.b, '[')
	for i := range v.Len() {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		if err := e.value(v.Index(i), items); err != nil {
			return err
		}
	}
	e.b = append(e.b, ']')
	return nil
}

// dict writes a map, keys sorted as encoding/json sorts them.
func (e *encoder) dict(v reflect.Value, s *Schema) error {
	if v.Type().Key().Kind() != reflect.String {
		return fmt.Errorf("cannot encode a %s: keys are not strings", v.Type())
	}
	if m, ok := v.Interface().(map[string]any); ok { // frontmatter: no reflection per key
		keys := slices.Sorted(maps.Keys(m))
		e.b = append(e.b, '{')
		for i, k := range keys {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.string(k)
			e.b = append(e.b, ':')
			if err := e.value(reflect.ValueOf(m[k]), s.child(k)); err != nil {
				return err
			}
		}
		e.b = append(e.b, '}')
		return nil
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	e.b = append(e.b, '{')
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.string(k.String())
		e.b = append(e.b, ':')
		if err := e.value(v.MapIndex(k), s.child(k.String())); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *encoder) object(v reflect.Value, s *Schema) error {
	e.b = append(e.b, '{')
	first := true
	for _, f := range writePlan(v.Type(), s) {
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil {
			continue // a field of a nil embedded pointer
		}
		if !f.always && fv.IsZero() {
			continue
		}
		if !first {
			e.b = append(e.b, ',')
		}
		first = false
		e.b = append(e.b, f.key...)
		if err := e.value(fv, f.schema); err != nil {
			return err
		}
	}
	e.b = append(e.b, '}')
	return nil
}

// planned is a struct field as an object schema has it written.
type planned struct {
	field
	key    []byte  // "name":
	schema *Schema // the property's, or nil
}

// writePlans caches writePlan.
var writePlans sync.Map // planKey → []planned

type planKey struct {
	t reflect.Type
	s *Schema
}

// writePlan returns how values of struct type t are written for schema s:
// each field the schema declares, with its property's schema, always
// written when the property is required. For a record schema (closed,
// with properties) the fields it does not declare are not on the wire;
// without one, every field is.
func writePlan(t reflect.Type, s *Schema) []planned {
	k := planKey{t, s}
	if p, ok := writePlans.Load(k); ok {
		return p.([]planned)
	}
	record := s != nil && len(s.Props) > 0 && !s.Open
	var p []planned
	for _, f := range fieldsOf(t) {
		key, _ := json.Marshal(f.name)
		pl := planned{field: f, key: append(key, ':')}
		if s != nil {
			if pr := s.prop(f.name); pr != nil {
				pl.schema = pr.Schema
				pl.always = pl.always || pr.Required
			} else if record {
				continue // not on the wire
			} else {
				pl.schema = s.Values
			}
		}
		p = append(p, pl)
	}
	writePlans.Store(k, p)
	return p
}

// float writes f as encoding/json does.
func (e *encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("cannot encode %v", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	start := len(e.b)
	e.b = strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' { // clean up e-09 to e-9, as encoding/json does
		n := len(e.b) - start
		if n >= 4 && e.b[len(e.b)-4] == 'e' && e.b[len(e.b)-3] == '-' && e.b[len(e.b)-2] == '0' {
			e.b[len(e.b)-2] = e.b[len(e.b)-1]
			e.b = e.b[:len(e.b)-1]
		}
	}
	return nil
}

const hexDigits = "0123456789abcdef"

// string writes s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 as U+FFFD, and U+2028 and U+2029
// escaped for JavaScript; nothing else.
func (e *encoder) string(s string) {
	e.b = append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			e.b = append(e.b, s[start:i]...)
			switch c {
			case '"', '\\':
				e.b = append(e.b, '\\', c)
			case '\n':
				e.b = append(e.b, '\\', 'n')
			case '\r':
				e.b = append(e.b, '\\', 'r')
			case '\t':
				e.b = append(e.b, '\\', 't')
			default:
				e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			e.b = append(e.b, s[start:i]...)
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}

// field is a struct field on the wire.
type field struct {
	name  string
	index []int
	// always: a json tag without omitempty, written even when zero.
	always bool
}

// fieldCache holds the wire fields of each struct type.
var fieldCache sync.Map // reflect.Type → []field

// fieldsOf returns the wire fields of struct type t in order, the fields
// of embedded structs promoted.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, tagged := sf.Tag.Lookup("json")
		if name == "-" {
			continue
		}
		always := tagged
		if c := strings.IndexByte(name, ','); c >= 0 {
			always = !strings.Contains(name[c:], ",omitempty")
			name = name[:c]
		}
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for _, pf := range fieldsOf(ft) {
				fs = append(fs, field{name: pf.name, index: append([]int{i}, pf.index...)})
			}
			continue
		}
		if !sf.IsExported() {
			continue
		}
		if !tagged || name == "" {
			name = snakeCase(sf.Name)
		}
		fs = append(fs, field{name: name, index: []int{i}, always: always})
	}
	fieldCache.Store(t, fs)
	return fs
}

// snakeCase turns a Go field name into the wire's: CaughtUp is caught_up,
// NextCursor next_cursor, HTTPAddr http_addr, Line2 line2.
func snakeCase(name string) string {
	b := make([]byte, 0, len(name)+4)
	for i := range len(name) {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			lowerBefore := i > 0 && ('a' <= name[i-1] && name[i-1] <= 'z' || '0' <= name[i-1] && name[i-1] <= '9')
			upperRunEnds := i > 0 && 'A' <= name[i-1] && name[i-1] <= 'Z' && i+1 < len(name) && 'a' <= name[i+1] && name[i+1] <= 'z'
			if lowerBefore || upperRunEnds {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// child is the schema of an object's property k: the property's own, else
// that of every value of an open map; nil when s says nothing about it.
func (s *Schema) child(k string) *Schema {
	if s == nil {
		return nil
	}
	if p := s.prop(k); p != nil {
		return p.Schema
	}
	return s.Values
}

// significant rounds f to n significant digits: 0.0061234 to 0.00612 and
// 12.345 to 12.3 for n = 3.
func significant(f float64, n int) float64 {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	places := n - 1 - int(math.Floor(math.Log10(math.Abs(f))))
	if places >= 0 {
		p := math.Pow10(places)
		return math.Round(f*p) / p
	}
	p := math.Pow10(-places)
	return math.Round(f/p) * p
}
