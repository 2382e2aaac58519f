package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// schema is a JSON Schema, the small subset the tools use. One value serves
// twice: it is published as a tool's input or output schema, and validate
// checks arguments against it, so the schema a client sees is the one the
// server enforces.
type schema struct {
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
	Items     *schema
	// Props are an object's properties, in the order they are published.
	Props []prop
	// Open objects accept any other key (free-form maps); closed ones
	// reject unknown keys.
	Open bool
	// Values, for an open object, is the schema of every value.
	Values *schema
	// Unsaid, for an open object, publishes no additionalProperties at
	// all, as a seed's schema does.
	Unsaid bool
	// Nullable values may be null besides their type.
	Nullable bool
	// Digits, for a number in a result, is how many significant digits
	// it is rounded to on the wire; 0 keeps it as it is.
	Digits int
}

// prop is a property of an object schema.
type prop struct {
	Name     string
	Schema   *schema
	Required bool
}

func ptr[T any](v T) *T { return &v }

// Constructors for the common shapes.

func str(desc string) *schema { return &schema{Type: "string", Description: desc} }

// text is a string of note text (a note, or a piece of one), bounded only
// by the request's size and the note size the wiki allows.
func text(desc string) *schema {
	return &schema{Type: "string", Description: desc, MaxLength: ptr(noMaxLength)}
}
func boolean(desc string) *schema { return &schema{Type: "boolean", Description: desc} }
func integer(desc string, min, max float64) *schema {
	return &schema{Type: "integer", Description: desc, Min: &min, Max: &max}
}
func strList(desc string) *schema {
	return &schema{Type: "array", Description: desc, Items: &schema{Type: "string"}}
}
func enum(desc string, values ...string) *schema {
	return &schema{Type: "string", Description: desc, Enum: values}
}
func object(desc string, props ...prop) *schema {
	return &schema{Type: "object", Description: desc, Props: props}
}
func openObject(desc string) *schema {
	return &schema{Type: "object", Description: desc, Open: true}
}
func arrayOf(desc string, items *schema) *schema {
	return &schema{Type: "array", Description: desc, Items: items}
}

// def returns s with a default value, for publishing.
func (s *schema) def(v any) *schema { s.Default = v; return s }

func opt(name string, s *schema) prop { return prop{Name: name, Schema: s} }
func req(name string, s *schema) prop { return prop{Name: name, Schema: s, Required: true} }

// prop returns the property called name, or nil.
func (s *schema) prop(name string) *prop {
	for i := range s.Props {
		if s.Props[i].Name == name {
			return &s.Props[i]
		}
	}
	return nil
}

// without returns a copy of an object schema without the named properties.
func (s *schema) without(names ...string) *schema {
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

// published returns a deep copy of an output schema as tools/list shows
// it: the shape (types, properties, items, enums, required) without what a
// client never needs of a result (descriptions, defaults, formats and
// bounds), and every object open, so that a client validating results
// keeps working when a later version adds a field. Nothing at the top is
// required: a failed call's structured content is {"error": {...}}
// instead (see errorResult).
func (s *schema) published() *schema {
	c := s.shape()
	c.Props = slices.Clone(c.Props)
	for i := range c.Props {
		c.Props[i].Required = false
	}
	return c
}

// shape is published below the top.
func (s *schema) shape() *schema {
	c := &schema{Type: s.Type, Enum: s.Enum, Nullable: s.Nullable, Open: s.Type == "object"}
	if s.Items != nil {
		c.Items = s.Items.shape()
	}
	if s.Values != nil {
		c.Values = s.Values.shape()
	}
	c.Props = make([]prop, len(s.Props))
	for i, p := range s.Props {
		p.Schema = p.Schema.shape()
		c.Props[i] = p
	}
	return c
}

// MarshalJSON writes the schema with its properties in order.
func (s *schema) MarshalJSON() ([]byte, error) {
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
type orderedProps []prop

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

// shareDefinitions returns a published schema with every subschema of
// more than minShared bytes that occurs more than once written once, under
// $defs, and referred to with $ref; and with every free-form map written
// as {"type":"object"}. The keys of each object come out sorted.
func shareDefinitions(raw []byte) []byte {
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
