package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// DecodeWire decodes structured content into v by the rules that
// EncodeStructured writes it with: a struct field is read from the key of
// its json tag or, without one, of its snake_case name. Tests decode
// results into the wiki's own types with it.
func DecodeWire(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var raw any
	if err := d.Decode(&raw); err != nil {
		return err
	}
	return assignWire(reflect.ValueOf(v).Elem(), raw)
}

func assignWire(dst reflect.Value, src any) error {
	if src == nil {
		dst.SetZero()
		return nil
	}
	if dst.Kind() == reflect.Interface || reflect.PointerTo(dst.Type()).Implements(unmarshalerType) {
		b, err := json.Marshal(src)
		if err != nil {
			return err
		}
		return json.Unmarshal(b, dst.Addr().Interface())
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return assignWire(dst.Elem(), src)
	case reflect.Struct:
		m, ok := src.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", dst.Type(), src)
		}
		for _, f := range fieldsOf(dst.Type()) {
			val, ok := m[f.name]
			if !ok {
				continue
			}
			fv := dst
			for _, i := range f.index {
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						fv.Set(reflect.New(fv.Type().Elem()))
					}
					fv = fv.Elem()
				}
				fv = fv.Field(i)
			}
			if err := assignWire(fv, val); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
		}
		return nil
	case reflect.Slice:
		list, ok := src.([]any)
		if !ok {
			return fmt.Errorf("%s: want a list, got %T", dst.Type(), src)
		}
		s := reflect.MakeSlice(dst.Type(), len(list), len(list))
		for i, it := range list {
			if err := assignWire(s.Index(i), it); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case reflect.Map:
		m, ok := src.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", dst.Type(), src)
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(m))
		for k, val := range m {
			e := reflect.New(dst.Type().Elem()).Elem()
			if err := assignWire(e, val); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), e)
		}
		dst.Set(out)
		return nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst.Addr().Interface())
}
