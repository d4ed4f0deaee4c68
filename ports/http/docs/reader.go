package docs

import (
	"strings"
)

// reader walks the generic JSON tree of the document, resolving local $refs.
type reader struct {
	doc map[string]any
}

func (reader) obj(m map[string]any, key string) map[string]any {
	if m == nil {
		return nil
	}
	v, _ := m[key].(map[string]any)
	return v
}

func (reader) str(m map[string]any, key string) string {
	if m == nil {
		return ""
	}
	v, _ := m[key].(string)
	return v
}

func (reader) list(m map[string]any, key string) []any {
	if m == nil {
		return nil
	}
	v, _ := m[key].([]any)
	return v
}

// resolve follows a "#/..." $ref (repeatedly); other objects come back as they are.
func (d reader) resolve(m map[string]any) map[string]any {
	for i := 0; m != nil && i < 8; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		var cur any = d.doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			obj, _ := cur.(map[string]any)
			cur = obj[strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

// schemaName names a schema by its component, or describes it inline.
func (d reader) schemaName(s map[string]any) string {
	if s == nil {
		return ""
	}
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	return d.typeOf(s)
}

// typeOf is a short type text: "string (date-time)", "array of Module", "string | null".
func (d reader) typeOf(s map[string]any) string {
	if s == nil {
		return ""
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if target := d.resolve(s); target != nil && target["enum"] != nil {
			return name + " (" + d.enumText(target) + ")"
		}
		return name
	}
	if c, ok := s["const"]; ok {
		if cs, isString := c.(string); isString {
			return `"` + cs + `"`
		}
	}
	var kinds []string
	switch t := s["type"].(type) {
	case string:
		kinds = []string{t}
	case []any:
		for _, k := range t {
			kinds = append(kinds, k.(string))
		}
	}
	for i, k := range kinds {
		switch {
		case k == "array":
			kinds[i] = "array of " + d.typeOf(d.obj(s, "items"))
		case k == "object" && s["additionalProperties"] != nil && s["properties"] == nil:
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				kinds[i] = "map of " + d.typeOf(ap)
			}
		case k == "string" && s["format"] != nil:
			kinds[i] = "string (" + s["format"].(string) + ")"
		}
	}
	text := strings.Join(kinds, " | ")
	if s["enum"] != nil {
		text += " (" + d.enumText(s) + ")"
	}
	return text
}

func (d reader) enumText(s map[string]any) string {
	var vals []string
	for _, v := range d.list(s, "enum") {
		if vs, ok := v.(string); ok {
			vals = append(vals, vs)
		}
	}
	return strings.Join(vals, ", ")
}

func (d reader) parameter(raw map[string]any) field {
	p := d.resolve(raw)
	req, _ := p["required"].(bool)
	return field{Name: d.str(p, "name"), In: d.str(p, "in"), Type: d.typeOf(d.obj(p, "schema")), Description: inline(d.str(p, "description")), Required: req}
}

// schema lists a component's fields, merging allOf parts; anyOf/oneOf become variants.
func (d reader) schema(name string, s map[string]any) schema {
	out := schema{Name: name, Description: paragraphs(d.str(s, "description"))}
	seen := map[string]bool{}
	var collect func(prefix string, s map[string]any)
	collect = func(prefix string, s map[string]any) {
		s = d.resolve(s)
		for _, part := range d.list(s, "allOf") {
			collect(prefix, part.(map[string]any))
		}
		required := map[string]bool{}
		for _, r := range d.list(s, "required") {
			required[r.(string)] = true
		}
		props := d.obj(s, "properties")
		for _, key := range d.propertyOrder(s, props) {
			if seen[prefix+key] {
				continue
			}
			seen[prefix+key] = true
			prop := props[key].(map[string]any)
			desc := d.str(prop, "description")
			if desc == "" {
				desc = d.str(d.resolve(prop), "description")
			}
			out.Fields = append(out.Fields, field{Name: prefix + key, Type: d.typeOf(prop), Description: inline(desc), Required: required[key]})
			// Inline objects (not named components) are expanded in place: items[].courseId.
			if _, named := prop["$ref"]; !named && d.obj(prop, "properties") != nil {
				collect(prefix+key+".", prop)
			}
			if items := d.obj(prop, "items"); items != nil && items["$ref"] == nil && d.obj(items, "properties") != nil {
				collect(prefix+key+"[].", items)
			}
		}
	}
	collect("", s)
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, v := range d.list(s, key) {
			out.Variants = append(out.Variants, d.schemaName(v.(map[string]any)))
		}
	}
	if len(out.Fields) == 0 && len(out.Variants) == 0 {
		out.Fields = append(out.Fields, field{Name: "(value)", Type: d.typeOf(s)})
	}
	return out
}

// propertyOrder lists properties in the order of "required" first (the document writes
// it in the resource's field order), then the rest alphabetically.
func (d reader) propertyOrder(s, props map[string]any) []string {
	var keys []string
	seen := map[string]bool{}
	for _, r := range d.list(s, "required") {
		if _, ok := props[r.(string)]; ok && !seen[r.(string)] {
			keys = append(keys, r.(string))
			seen[r.(string)] = true
		}
	}
	for _, k := range sortedKeys(props) {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	return keys
}

// keysInOrder lists the webhooks in the order of the EventType enum (the spec's order).
func (d reader) keysInOrder(_ string, hooks map[string]any) []string {
	var out []string
	for _, v := range d.list(d.obj(d.obj(d.obj(d.doc, "components"), "schemas"), "EventType"), "enum") {
		if _, ok := hooks[v.(string)]; ok {
			out = append(out, v.(string))
		}
	}
	return out
}
