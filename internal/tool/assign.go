package tool

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// decoder stores checked argument values in a Go value as validate walks
// them, the way encoding/json would decode the checked arguments with
// UseNumber and DisallowUnknownFields: fields by their json names, the
// same errors in the same order. Kinds the tools' argument structs do not
// use go through encoding/json itself.
type decoder struct {
	// root is the path of the arguments, "" at the top.
	root string
	// steps lead from the arguments to the value at hand.
	steps []step
	// err is the first error storing a value; encoding/json goes on after
	// it, and reports it at the end.
	err error
	// stop is an error that ends the decoding, which encoding/json reports
	// instead of err.
	stop error
}

// step is one step down the arguments: an object's key or an array's
// index.
type step struct {
	key   string
	index int // -1 for a key
	// field is the struct field that the key names, if any.
	field *fieldPlan
}

// path is the path of the value at hand, such as "edits[2].op".
func (d *decoder) path() string {
	at := d.root
	for _, s := range d.steps {
		if s.index >= 0 {
			at += "[" + strconv.Itoa(s.index) + "]"
		} else {
			at = join(at, s.key)
		}
	}
	return at
}

// fields is encoding/json's error context: the names of the struct fields
// (and embedded structs) down to the value at hand.
func (d *decoder) fields() []string {
	var names []string
	for _, s := range d.steps {
		if s.field != nil {
			names = append(names, s.field.context...)
		}
	}
	return names
}

// result returns the error storing the arguments, nil if none.
func (d *decoder) result() error {
	if d.stop != nil {
		return d.stop
	}
	return d.err
}

// fail records err, as encoding/json reports it, unless an earlier error
// was recorded.
func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = d.jsonError(err)
	}
}

// typeError records that the value at hand is the JSON value what,
// which its Go type cannot hold.
func (d *decoder) typeError(what string) {
	if d.err == nil {
		d.fail(&json.UnmarshalTypeError{Value: what, Field: strings.Join(d.fields(), ".")})
	}
}

// jsonError is the INVALID_PARAMS error for an error of encoding/json.
func (d *decoder) jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// The schema admitted what the struct cannot hold: a number out of
		// the Go type's range, for instance.
		return ArgError(join(d.root, te.Field), "cannot hold %s", te.Value)
	}
	return ArgError(d.root, "%v", err)
}

// contextError adds the error context to an error of encoding/json met
// below the value at hand, as encoding/json does.
func (d *decoder) contextError(err error) error {
	var te *json.UnmarshalTypeError
	if fields := d.fields(); len(fields) > 0 && errors.As(err, &te) {
		if te.Field != "" {
			fields = append(fields, te.Field)
		}
		te.Field = strings.Join(fields, ".")
	}
	return err
}

// target follows pointers in dst, allocating them, to where v is stored.
// When v is stored whole rather than piece by piece as it is checked,
// it returns the plan that stores it.
func (d *decoder) target(v any, dst reflect.Value) (reflect.Value, *typePlan) {
	for {
		p := planOf(dst.Type())
		switch p.kind {
		case storePointer:
			if v == nil {
				dst.SetZero()
				return reflect.Value{}, nil
			}
			if dst.IsNil() {
				dst.Set(reflect.New(dst.Type().Elem()))
			}
			dst = dst.Elem()
			continue
		case storeAny, storeShared, storeUnmarshaler, storeJSON:
			return dst, p
		}
		return dst, nil
	}
}

// storeWhole stores the checked value v in dst by the plan p.
func (d *decoder) storeWhole(p *typePlan, v any, dst reflect.Value) {
	switch p.kind {
	case storeAny:
		if e := dst.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() {
			d.viaJSON(v, dst) // encoding/json decodes into what it points to
		} else if v == nil {
			dst.SetZero()
		} else {
			dst.Set(reflect.ValueOf(v))
		}
	case storeShared:
		switch {
		case v == nil:
			dst.SetZero()
		case reflect.TypeOf(v) != dst.Type():
			d.typeError(jsonType(v))
		case dst.Kind() == reflect.Map && !dst.IsNil():
			for k, e := range v.(map[string]any) {
				dst.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(&e).Elem())
			}
		default:
			dst.Set(reflect.ValueOf(v))
		}
	case storeUnmarshaler:
		b, err := json.Marshal(v)
		if err == nil {
			err = dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b)
		}
		if err != nil {
			d.stop = d.jsonError(d.contextError(err))
		}
	case storeJSON:
		d.viaJSON(v, dst)
	}
}

// viaJSON stores v in dst through encoding/json.
func (d *decoder) viaJSON(v any, dst reflect.Value) {
	b, err := json.Marshal(v)
	if err != nil {
		d.fail(err)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	err = dec.Decode(dst.Addr().Interface())
	var te *json.UnmarshalTypeError
	var be base64.CorruptInputError
	switch {
	case err == nil:
	case errors.As(err, &te), errors.As(err, &be), strings.HasPrefix(err.Error(), "json: unknown field "),
		strings.HasPrefix(err.Error(), "json: cannot set embedded pointer"):
		// encoding/json goes on after these.
		d.fail(d.contextError(err))
	default:
		// An unmarshaler's error, which ends the decoding.
		d.stop = d.jsonError(d.contextError(err))
	}
}

// store stores a string, a boolean, a number or null in dst, if valid.
func (d *decoder) store(v any, dst reflect.Value) {
	if !dst.IsValid() {
		return
	}
	switch v := v.(type) {
	case nil:
		switch dst.Kind() {
		case reflect.Map, reflect.Slice:
			dst.SetZero()
		}
	case string:
		switch {
		case dst.Kind() != reflect.String:
			d.typeError("string")
		case dst.Type() == numberType && !isNumber(v):
			item, _ := json.Marshal(v)
			d.stop = d.jsonError(fmt.Errorf("json: invalid number literal, trying to unmarshal %q into Number", item))
		default:
			dst.SetString(v)
		}
	case bool:
		if dst.Kind() != reflect.Bool {
			d.typeError("bool")
			return
		}
		dst.SetBool(v)
	case json.Number:
		d.storeNumber(v, dst)
	}
}

func (d *decoder) storeNumber(n json.Number, dst reflect.Value) {
	switch dst.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || dst.OverflowInt(i) {
			d.typeError("number " + string(n))
			return
		}
		dst.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || dst.OverflowUint(u) {
			d.typeError("number " + string(n))
			return
		}
		dst.SetUint(u)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(string(n), dst.Type().Bits())
		if err != nil || dst.OverflowFloat(f) {
			d.typeError("number " + string(n))
			return
		}
		dst.SetFloat(f)
	default:
		if dst.Type() != numberType {
			d.typeError("number")
			return
		}
		dst.SetString(string(n))
	}
}

// slice makes dst a slice of n elements and returns it; the zero Value
// when dst is not a slice.
func (d *decoder) slice(dst reflect.Value, n int) reflect.Value {
	if !dst.IsValid() {
		return dst
	}
	if dst.Kind() != reflect.Slice {
		d.typeError("array")
		return reflect.Value{}
	}
	if n == 0 {
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0)) // [] is empty, not nil
	} else {
		dst.Grow(n)
		dst.SetLen(n)
	}
	return dst
}

// object returns the plan that stores an object's members in dst (a
// struct or a map); nil when dst is not one.
func (d *decoder) object(dst reflect.Value) *typePlan {
	if !dst.IsValid() {
		return nil
	}
	p := planOf(dst.Type())
	switch p.kind {
	case storeMap:
		if dst.IsNil() {
			dst.Set(reflect.MakeMap(dst.Type()))
		}
	case storeStruct:
	default:
		d.typeError("object")
		return nil
	}
	return p
}

// member returns where the member key of an object goes in dst, which p
// stores, and notes its field in the last step; the zero Value when it
// goes nowhere.
func (d *decoder) member(p *typePlan, dst reflect.Value, key string) reflect.Value {
	if p == nil {
		return reflect.Value{}
	}
	if p.kind == storeMap {
		return reflect.New(dst.Type().Elem()).Elem()
	}
	f := p.field(key)
	if f == nil {
		d.fail(fmt.Errorf("json: unknown field %q", key))
		return reflect.Value{}
	}
	d.steps[len(d.steps)-1].field = f
	return dst.FieldByIndex(f.index)
}

// done stores the member key of a map, which member returned.
func (d *decoder) done(p *typePlan, dst reflect.Value, key string, v reflect.Value) {
	if p != nil && p.kind == storeMap {
		k := reflect.New(dst.Type().Key()).Elem()
		k.SetString(key)
		dst.SetMapIndex(k, v)
	}
}

// storeKind is how a Go type is stored.
type storeKind uint8

const (
	storeValue       storeKind = iota // bool, string, numbers
	storePointer                      // what it points to, allocated
	storeSlice                        // element by element
	storeMap                          // string keys, value by value
	storeStruct                       // field by field
	storeAny                          // an empty interface: the value itself
	storeShared                       // map[string]any, []any: the value itself
	storeUnmarshaler                  // a json.Unmarshaler: the value's JSON
	storeJSON                         // anything else: through encoding/json
)

// typePlan says how values of one Go type are stored.
type typePlan struct {
	kind storeKind
	// fields are a struct's fields, in order, and byName them by name.
	fields []fieldPlan
	byName map[string]*fieldPlan
}

// fieldPlan is a struct field that an object member can name.
type fieldPlan struct {
	name  string
	index []int
	// context is what the field pushes on the error context: the
	// embedded structs it is found through and its name.
	context []string
}

// field returns the field key names, matched exactly or else, as
// encoding/json does, without regard to case; nil if none.
func (p *typePlan) field(key string) *fieldPlan {
	if f := p.byName[key]; f != nil {
		return f
	}
	for i := range p.fields {
		if strings.EqualFold(p.fields[i].name, key) {
			return &p.fields[i]
		}
	}
	return nil
}

var (
	plans = sync.Map{} // reflect.Type to *typePlan

	numberType          = reflect.TypeFor[json.Number]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	anyMapType          = reflect.TypeFor[map[string]any]()
	anySliceType        = reflect.TypeFor[[]any]()
)

// planOf returns the plan for t, made once.
func planOf(t reflect.Type) *typePlan {
	if p, ok := plans.Load(t); ok {
		return p.(*typePlan)
	}
	p, _ := plans.LoadOrStore(t, newPlan(t))
	return p.(*typePlan)
}

func newPlan(t reflect.Type) *typePlan {
	if t.Kind() != reflect.Pointer {
		switch pt := reflect.PointerTo(t); {
		case pt.Implements(unmarshalerType):
			return &typePlan{kind: storeUnmarshaler}
		case pt.Implements(textUnmarshalerType):
			return &typePlan{kind: storeJSON}
		}
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &typePlan{kind: storeValue}
	case reflect.Pointer:
		return &typePlan{kind: storePointer}
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return &typePlan{kind: storeAny}
		}
	case reflect.Slice:
		switch {
		case t == anySliceType:
			return &typePlan{kind: storeShared}
		case t.Elem().Kind() != reflect.Uint8: // []byte takes base64
			return &typePlan{kind: storeSlice}
		}
	case reflect.Map:
		switch k := t.Key(); {
		case t == anyMapType:
			return &typePlan{kind: storeShared}
		case k.Kind() == reflect.String && !reflect.PointerTo(k).Implements(textUnmarshalerType):
			return &typePlan{kind: storeMap}
		}
	case reflect.Struct:
		p := &typePlan{kind: storeStruct, byName: map[string]*fieldPlan{}}
		if !p.addFields(t, nil, nil) {
			break
		}
		for i := range p.fields {
			f := &p.fields[i]
			if p.byName[f.name] != nil {
				return &typePlan{kind: storeJSON} // encoding/json picks one
			}
			p.byName[f.name] = f
		}
		return p
	}
	return &typePlan{kind: storeJSON}
}

// addFields adds the fields of struct t, found at index through the
// embedded structs named in context. It reports false for what it leaves
// to encoding/json: embedded pointers, the ,string option.
func (p *typePlan) addFields(t reflect.Type, index []int, context []string) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validTag(name) {
			name = ""
		}
		if strings.Contains(","+opts+",", ",string,") {
			return false
		}
		switch {
		case sf.Anonymous && sf.Type.Kind() == reflect.Pointer:
			return false
		case sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct:
			if !p.addFields(sf.Type, append(index[:len(index):len(index)], i), append(context[:len(context):len(context)], sf.Name)) {
				return false
			}
			continue
		case !sf.IsExported():
			if sf.Anonymous && name != "" {
				return false
			}
			continue
		}
		if name == "" {
			name = sf.Name
		}
		p.fields = append(p.fields, fieldPlan{
			name:    name,
			index:   append(index[:len(index):len(index)], i),
			context: append(context[:len(context):len(context)], name),
		})
	}
	return true
}

// validTag reports whether encoding/json takes name as a field's name.
func validTag(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// isNumber reports whether s is a JSON number.
func isNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	switch s[len(s)-1] {
	case ' ', '\t', '\r', '\n':
		return false
	}
	return json.Valid([]byte(s))
}

// jsonType names a JSON value's type as encoding/json's errors do.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number:
		return "number"
	case []any:
		return "array"
	}
	return "object"
}
