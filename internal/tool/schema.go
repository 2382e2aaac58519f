package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Schema is a JSON Schema, the small subset the tools use. One value serves
// twice: it is published as a tool's input or output schema, and validate
// checks arguments against it, so the schema a client sees is the one the
// server enforces.
type Schema struct {
	Type        string // string, integer, number, boolean, array, object; "" for any value
	Description string
	Default     any
	Enum        []string
	Format      string // date-time, date
	Min, Max    *float64
	// ExclusiveMin is a lower bound the value must exceed.
	ExclusiveMin       *float64
	MinItems, MaxItems *int
	MinLength          *int
	// MaxLength bounds a string, in bytes; nil means maxString, and
	// noMaxLength a text bounded only by the request and the note size.
	MaxLength *int
	Items     *Schema
	// Props are an object's properties, in the order they are published.
	Props []Prop
	// Open objects accept any other key (free-form maps); closed ones
	// reject unknown keys.
	Open bool
	// Values, for an open object, is the schema of every value.
	Values *Schema
	// Unsaid, for an open object, publishes no additionalProperties at
	// all, as a seed's schema does.
	Unsaid bool
	// Nullable values may be null besides their type.
	Nullable bool
	// Digits, for a number in a result, is how many significant digits
	// it is rounded to on the wire; 0 keeps it as it is.
	Digits int
}

// Prop is a property of an object schema.
type Prop struct {
	Name     string
	Schema   *Schema
	Required bool
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// Str is a string described by desc.
func Str(desc string) *Schema { return &Schema{Type: "string", Description: desc} }

// Text is a string of note text (a note, or a piece of one), bounded only
// by the request's size and the note size the wiki allows.
func Text(desc string) *Schema {
	return &Schema{Type: "string", Description: desc, MaxLength: Ptr(noMaxLength)}
}

// Boolean is a boolean described by desc.
func Boolean(desc string) *Schema { return &Schema{Type: "boolean", Description: desc} }

// Integer is an integer from min to max.
func Integer(desc string, min, max float64) *Schema {
	return &Schema{Type: "integer", Description: desc, Min: &min, Max: &max}
}

// StrList is a list of strings.
func StrList(desc string) *Schema {
	return &Schema{Type: "array", Description: desc, Items: &Schema{Type: "string"}}
}

// Enum is a string among values.
func Enum(desc string, values ...string) *Schema {
	return &Schema{Type: "string", Description: desc, Enum: values}
}

// Object is an object of the properties props and no others.
func Object(desc string, props ...Prop) *Schema {
	return &Schema{Type: "object", Description: desc, Props: props}
}

// OpenObject is an object of any keys.
func OpenObject(desc string) *Schema {
	return &Schema{Type: "object", Description: desc, Open: true}
}

// ArrayOf is a list of items.
func ArrayOf(desc string, items *Schema) *Schema {
	return &Schema{Type: "array", Description: desc, Items: items}
}

// Def returns s with a default value, for publishing.
func (s *Schema) Def(v any) *Schema { s.Default = v; return s }

// Opt is the optional property name.
func Opt(name string, s *Schema) Prop { return Prop{Name: name, Schema: s} }

// Req is the required property name.
func Req(name string, s *Schema) Prop { return Prop{Name: name, Schema: s, Required: true} }

// prop returns the property called name, or nil.
func (s *Schema) prop(name string) *Prop {
	for i := range s.Props {
		if s.Props[i].Name == name {
			return &s.Props[i]
		}
	}
	return nil
}

// Without returns a copy of an object schema without the named properties.
func (s *Schema) Without(names ...string) *Schema {
	c := *s
	c.Props = nil
	for _, p := range s.Props {
		keep := true
		for _, n := range names {
			keep = keep && p.Name != n
		}
		if keep {
			c.Props = append(c.Props, p)
		}
	}
	return &c
}

// Published returns a deep copy of an output schema as tools/list shows
// it: the shape (types, properties, items, enums, required) without what a
// client never needs of a result (descriptions, defaults, formats and
// bounds), and every object open, so that a client validating results
// keeps working when a later version adds a field. Nothing at the top is
// required: a failed call's structured content is {"error": {...}}
// instead (see errorResult).
func (s *Schema) Published() *Schema {
	c := s.shape()
	c.Props = slices.Clone(c.Props)
	for i := range c.Props {
		c.Props[i].Required = false
	}
	return c
}

// shape is published below the top.
func (s *Schema) shape() *Schema {
	c := &Schema{Type: s.Type, Enum: s.Enum, Nullable: s.Nullable, Open: s.Type == "object"}
	if s.Items != nil {
		c.Items = s.Items.shape()
	}
	if s.Values != nil {
		c.Values = s.Values.shape()
	}
	c.Props = make([]Prop, len(s.Props))
	for i, p := range s.Props {
		p.Schema = p.Schema.shape()
		c.Props[i] = p
	}
	return c
}

// MarshalJSON writes the schema with its properties in order.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	field := func(k string, v any) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(v)
		if err != nil {
			panic(err) // only our own literal values reach here
		}
		b.Write(vb)
	}
	switch {
	case s.Type != "" && s.Nullable:
		field("type", []string{s.Type, "null"})
	case s.Type != "":
		field("type", s.Type)
	}
	if s.Description != "" {
		field("description", s.Description)
	}
	if s.Enum != nil {
		field("enum", s.Enum)
	}
	if s.Format != "" {
		field("format", s.Format)
	}
	if s.Default != nil {
		field("default", s.Default)
	}
	if s.Min != nil {
		field("minimum", *s.Min)
	}
	if s.ExclusiveMin != nil {
		field("exclusiveMinimum", *s.ExclusiveMin)
	}
	if s.Max != nil {
		field("maximum", *s.Max)
	}
	if s.MinLength != nil {
		field("minLength", *s.MinLength)
	}
	if s.MinItems != nil {
		field("minItems", *s.MinItems)
	}
	if s.MaxItems != nil {
		field("maxItems", *s.MaxItems)
	}
	if s.Items != nil {
		field("items", s.Items)
	}
	if s.Type == "object" {
		props := orderedProps(s.Props)
		field("properties", props)
		var required []string
		for _, p := range s.Props {
			if p.Required {
				required = append(required, p.Name)
			}
		}
		if required != nil {
			field("required", required)
		}
		// An open record leaves additionalProperties out, as JSON Schema
		// allows; an open map says true and a closed object false.
		switch {
		case s.Unsaid:
		case s.Values != nil:
			field("additionalProperties", s.Values)
		case !s.Open:
			field("additionalProperties", false)
		case len(s.Props) == 0:
			field("additionalProperties", true)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// orderedProps marshals properties as an object, keys in order.
type orderedProps []Prop

func (ps orderedProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(p.Name)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := p.Schema.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ShareDefinitions returns a published schema with every subschema of
// more than minShared bytes that occurs more than once written once, under
// $defs, and referred to with $ref; and with every free-form map written
// as {"type":"object"}. The keys of each object come out sorted.
func ShareDefinitions(raw []byte) []byte {
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		panic(err) // our own schema
	}
	const minShared = 80
	// subschemas calls f on each schema directly inside s, and replaces it
	// with what f returns.
	subschemas := func(s map[string]any, f func(map[string]any) map[string]any) {
		if props, ok := s["properties"].(map[string]any); ok {
			for k, p := range props {
				if ps, ok := p.(map[string]any); ok {
					props[k] = f(ps)
				}
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			if sub, ok := s[k].(map[string]any); ok {
				s[k] = f(sub)
			}
		}
	}
	count := map[string]int{}
	var walk func(s map[string]any) map[string]any
	walk = func(s map[string]any) map[string]any {
		if props, ok := s["properties"].(map[string]any); ok && len(props) == 0 && s["additionalProperties"] == true {
			delete(s, "properties")
			delete(s, "additionalProperties")
		}
		subschemas(s, walk)
		if b, _ := json.Marshal(s); len(b) > minShared {
			count[string(b)]++
		}
		return s
	}
	subschemas(root, walk)
	defs := map[string]any{}
	names := map[string]string{}
	var replace func(s map[string]any) map[string]any
	replace = func(s map[string]any) map[string]any {
		b, _ := json.Marshal(s)
		if count[string(b)] < 2 {
			subschemas(s, replace)
			return s
		}
		name, ok := names[string(b)]
		if !ok {
			name = fmt.Sprintf("d%d", len(names))
			names[string(b)] = name
			subschemas(s, replace)
			defs[name] = s
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	}
	subschemas(root, replace)
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	out, err := json.Marshal(root)
	if err != nil {
		panic(err)
	}
	return out
}
