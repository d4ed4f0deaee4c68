package contract

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"pgregory.net/rapid"

	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
)

// Generated is one request drawn from an operation's schemas.
type Generated struct {
	Method, Path string // Path with its query string
	Body         []byte // nil: no body
	// Valid tells whether the request conforms to the document; Mutation says how it
	// was broken when it does not.
	Valid    bool
	Mutation string
}

// Generator draws requests from the document's own parameter and body schemas.
type Generator struct {
	doc map[string]any
	// IDs are values to try where an id goes: both workspaces' ids and unknown ones.
	IDs []string
}

// NewGenerator reads the embedded document.
func NewGenerator(ids []string) (*Generator, error) {
	doc, err := openapi.Load()
	if err != nil {
		return nil, err
	}
	g := &Generator{IDs: ids}
	if err := json.Unmarshal(doc.JSON, &g.doc); err != nil {
		return nil, fmt.Errorf("generator: %w", err)
	}
	return g, nil
}

func (g *Generator) resolve(m map[string]any) map[string]any {
	for i := 0; m != nil && i < 8; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		var cur any = g.doc
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			obj, _ := cur.(map[string]any)
			cur = obj[part]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

type param struct {
	name, in string
	required bool
	schema   map[string]any
}

func (g *Generator) operation(op Operation) (params []param, body map[string]any) {
	raw := g.doc["paths"].(map[string]any)[op.Path].(map[string]any)[strings.ToLower(op.Method)].(map[string]any)
	list, _ := raw["parameters"].([]any)
	for _, p := range list {
		pm := g.resolve(p.(map[string]any))
		req, _ := pm["required"].(bool)
		params = append(params, param{name: pm["name"].(string), in: pm["in"].(string), required: req, schema: g.resolve(pm["schema"].(map[string]any))})
	}
	if rb, ok := raw["requestBody"].(map[string]any); ok {
		body = g.resolve(rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
	}
	return params, body
}

// Draw builds one request for op: valid by the document, or (about half the time) broken
// in one way an integrator's bug or an attacker would break it.
func (g *Generator) Draw(t *rapid.T, op Operation) Generated {
	params, bodySchema := g.operation(op)
	path := op.Path
	query := url.Values{}
	for _, p := range params {
		switch p.in {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.name+"}", url.PathEscape(g.idOr(t, p.name, p.schema)))
		case "query":
			if p.required || rapid.Bool().Draw(t, "with "+p.name) {
				query.Set(p.name, g.scalar(t, p.name, p.schema))
			}
		}
	}
	var body any
	if bodySchema != nil {
		body = g.value(t, "body", bodySchema)
	}
	gen := Generated{Method: op.Method, Valid: true}
	if rapid.Bool().Draw(t, "break it") {
		gen.Valid = false
		gen.Mutation = g.breakRequest(t, params, bodySchema, query, &body)
	}
	if gen.Mutation == "" {
		gen.Valid = true
	}
	gen.Path = path
	if enc := query.Encode(); enc != "" {
		gen.Path += "?" + enc
	}
	if raw, isRaw := body.(rawBody); isRaw {
		gen.Body = []byte(raw)
	} else if body != nil {
		gen.Body, _ = json.Marshal(body)
	}
	return gen
}

// rawBody is a body sent as is (not JSON-encoded).
type rawBody string

func (g *Generator) breakRequest(t *rapid.T, params []param, bodySchema map[string]any, query url.Values, body *any) string {
	var options []string
	for _, p := range params {
		if p.in == "query" {
			options = append(options, "query:"+p.name)
		}
	}
	options = append(options, "unknown-param")
	if bodySchema != nil {
		options = append(options, "body-not-json", "body-array", "body-unknown-field", "body-missing-required", "body-wrong-type", "body-too-long", "body-empty")
	}
	choice := rapid.SampledFrom(options).Draw(t, "mutation")
	switch {
	case strings.HasPrefix(choice, "query:"):
		name := strings.TrimPrefix(choice, "query:")
		var p param
		for _, q := range params {
			if q.name == name {
				p = q
			}
		}
		bad, ok := g.invalidScalar(t, p.schema)
		if !ok {
			return ""
		}
		query.Set(name, bad)
		return "query " + name + "=" + bad
	case choice == "unknown-param":
		name := rapid.SampledFrom([]string{"page", "offset", "Limit", "sort", "expand", "email_", "status[]"}).Draw(t, "unknown")
		query.Set(name, "1")
		return "unknown query parameter " + name
	case choice == "body-not-json":
		*body = rawBody(rapid.SampledFrom([]string{`{`, `{"email":`, `nope`, `{"email":"a@b.co"}{}`, "\x00", `{"email":"a@b.co",}`}).Draw(t, "raw"))
		return "body is not one JSON object"
	case choice == "body-array":
		*body = []any{*body}
		return "body is an array"
	case choice == "body-empty":
		*body = rawBody("")
		return "body is empty"
	}
	obj, ok := (*body).(map[string]any)
	if !ok {
		return ""
	}
	props, _ := bodySchema["properties"].(map[string]any)
	names := sortedNames(props)
	switch choice {
	case "body-unknown-field":
		obj["unexpected"+rapid.SampledFrom([]string{"", "Field", "_x"}).Draw(t, "suffix")] = "x"
		return "unknown body field"
	case "body-missing-required":
		req, _ := bodySchema["required"].([]any)
		if len(req) == 0 {
			return ""
		}
		name := req[rapid.IntRange(0, len(req)-1).Draw(t, "drop")].(string)
		delete(obj, name)
		return "missing required " + name
	case "body-wrong-type":
		name := rapid.SampledFrom(names).Draw(t, "field")
		obj[name] = rapid.SampledFrom([]any{float64(42), true, []any{"x"}, map[string]any{"a": 1.0}}).Draw(t, "wrong")
		if g.resolve(props[name].(map[string]any))["type"] == "object" {
			obj[name] = "not an object"
		}
		return "wrong type for " + name
	case "body-too-long":
		var candidates []string
		for _, n := range names {
			if _, ok := g.resolve(props[n].(map[string]any))["maxLength"]; ok {
				candidates = append(candidates, n)
			}
		}
		if len(candidates) == 0 {
			return ""
		}
		name := rapid.SampledFrom(candidates).Draw(t, "long field")
		max := int(g.resolve(props[name].(map[string]any))["maxLength"].(float64))
		obj[name] = strings.Repeat("x", max+1+rapid.IntRange(0, 300).Draw(t, "excess")) + "@example.com"
		return "over maxLength " + name
	}
	return ""
}

// invalidScalar draws a query value its schema refuses, if there is one.
func (g *Generator) invalidScalar(t *rapid.T, s map[string]any) (string, bool) {
	switch s["type"] {
	case "integer":
		// Only what the schema's bounds refuse: 0 is a valid wait (0..25), not a valid limit.
		var bad []string
		for _, v := range []string{"0", "-1", "101", "1000000", "abc", "1.5", "", "25x", "99999999999999999999"} {
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || !withinBounds(s, float64(n)) {
				bad = append(bad, v)
			}
		}
		return rapid.SampledFrom(bad).Draw(t, "bad int"), true
	case "string":
		if s["enum"] != nil {
			return rapid.SampledFrom([]string{"", "PAID", "unknown", "paid,refunded"}).Draw(t, "bad enum"), true
		}
		switch s["format"] {
		case "date-time":
			return rapid.SampledFrom([]string{"", "yesterday", "2026-13-01T00:00:00Z", "2026-11-21", "1700000000", "2026-11-21T10:00:00"}).Draw(t, "bad time"), true
		case "date":
			return rapid.SampledFrom([]string{"", "2026-02-30", "2026/11/01", "20261101", "2026-11-01T00:00:00Z"}).Draw(t, "bad date"), true
		}
		if min, ok := s["minLength"].(float64); ok && min > 0 {
			return "", true
		}
	}
	return "", false
}

func (g *Generator) idOr(t *rapid.T, label string, s map[string]any) string {
	if len(g.IDs) > 0 && rapid.IntRange(0, 3).Draw(t, label+" kind") > 0 {
		return g.knownID(t, label)
	}
	return g.scalar(t, label, s)
}

// idPrefixes says which kind of id a field names, so that known ids of the right kind
// (of either workspace) are tried most of the time.
var idPrefixes = map[string]string{"id": "crs_", "courseId": "crs_", "studentId": "stu_"}

func (g *Generator) knownID(t *rapid.T, label string) string {
	name := label[strings.LastIndex(label, ".")+1:]
	if prefix, ok := idPrefixes[name]; ok && rapid.IntRange(0, 4).Draw(t, label+" typed") > 0 {
		var typed []string
		for _, id := range g.IDs {
			if strings.HasPrefix(id, prefix) {
				typed = append(typed, id)
			}
		}
		if len(typed) > 0 {
			return rapid.SampledFrom(typed).Draw(t, label)
		}
	}
	return rapid.SampledFrom(g.IDs).Draw(t, label)
}

// scalar draws a valid query or path value.
func (g *Generator) scalar(t *rapid.T, label string, s map[string]any) string {
	v := g.value(t, label, s)
	switch x := v.(type) {
	case string:
		return x
	case int:
		return fmt.Sprint(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// value draws a value the schema accepts.
func (g *Generator) value(t *rapid.T, label string, s map[string]any) any {
	s = g.resolve(s)
	if enum, ok := s["enum"].([]any); ok {
		return rapid.SampledFrom(enum).Draw(t, label)
	}
	typ := s["type"]
	if types, ok := typ.([]any); ok { // a nullable field: [string, 'null']
		typ = rapid.SampledFrom(types).Draw(t, label+" type")
	}
	switch typ {
	case "array":
		items, _ := s["items"].(map[string]any)
		max := 3
		if v, ok := s["maxItems"].(float64); ok && int(v) < max {
			max = int(v)
		}
		min := 0
		if v, ok := s["minItems"].(float64); ok {
			min = int(v)
		}
		out := make([]any, rapid.IntRange(min, max).Draw(t, label+" length"))
		for i := range out {
			out[i] = g.value(t, fmt.Sprintf("%s[%d]", label, i), items)
		}
		return out
	case "integer":
		min, max := 1, 100
		if v, ok := s["minimum"].(float64); ok {
			min = int(v)
		}
		if v, ok := s["maximum"].(float64); ok {
			max = int(v)
		}
		return rapid.IntRange(min, max).Draw(t, label)
	case "object":
		return g.object(t, label, s)
	case "string":
		return g.str(t, label, s)
	}
	return nil
}

func (g *Generator) object(t *rapid.T, label string, s map[string]any) map[string]any {
	out := map[string]any{}
	required := map[string]bool{}
	for _, r := range asList(s["required"]) {
		required[r.(string)] = true
	}
	props, _ := s["properties"].(map[string]any)
	for _, name := range sortedNames(props) {
		if required[name] || rapid.Bool().Draw(t, label+"."+name+"?") {
			out[name] = g.value(t, label+"."+name, props[name].(map[string]any))
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok && props == nil {
		max := 3
		if v, ok := s["maxProperties"].(float64); ok && int(v) < max {
			max = int(v)
		}
		keyMax := 40
		if pn, ok := s["propertyNames"].(map[string]any); ok {
			if v, ok := pn["maxLength"].(float64); ok {
				keyMax = int(v)
			}
		}
		n := rapid.IntRange(0, max).Draw(t, label+" size")
		for i := 0; i < n; i++ {
			key := rapid.StringMatching(fmt.Sprintf(`[a-zA-Z][a-zA-Z0-9_]{0,%d}`, keyMax-1)).Draw(t, label+" key")
			out[key] = g.value(t, label+"["+key+"]", ap)
		}
	}
	return out
}

func (g *Generator) str(t *rapid.T, label string, s map[string]any) string {
	switch s["format"] {
	case "email":
		return rapid.StringMatching(`[a-z0-9]{1,20}(\.[a-z0-9]{1,10})?`).Draw(t, label+" local") + "@" +
			rapid.StringMatching(`[a-z]{1,12}\.(com|org|io)`).Draw(t, label+" domain")
	case "date-time":
		at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC).Add(time.Duration(rapid.Int64Range(-90*24*3600, 90*24*3600).Draw(t, label)) * time.Second)
		if rapid.Bool().Draw(t, label+" offset") {
			return at.In(time.FixedZone("", 2*3600)).Format(time.RFC3339)
		}
		return at.Format(time.RFC3339)
	case "date":
		return time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rapid.IntRange(-200, 30).Draw(t, label)).Format("2006-01-02")
	}
	if pattern, ok := s["pattern"].(string); ok && strings.HasPrefix(pattern, "^") && len(g.IDs) > 0 {
		return g.knownID(t, label)
	}
	// externalId is the integrator's own id, not one of ours: drawing ours there would store
	// another workspace's ids in a student and make the leak check see them later.
	if strings.HasSuffix(label, "Id") && !strings.HasSuffix(label, "externalId") && len(g.IDs) > 0 && rapid.IntRange(0, 3).Draw(t, label+" known") > 0 {
		return g.knownID(t, label)
	}
	min, max := 0, 40
	if v, ok := s["minLength"].(float64); ok {
		min = int(v)
	}
	if v, ok := s["maxLength"].(float64); ok && int(v) < max {
		max = int(v)
	}
	if max < min {
		max = min
	}
	// Printable Unicode text of any script (letters, digits, marks, punctuation, symbols,
	// spaces). Control characters are left to the invalid cases: text validation refuses them.
	return rapid.StringOfN(rapid.RuneFrom(nil, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs), min, max, -1).Draw(t, label)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// withinBounds tells whether n lies within the schema's minimum and maximum.
func withinBounds(s map[string]any, n float64) bool {
	if v, ok := s["minimum"].(float64); ok && n < v {
		return false
	}
	if v, ok := s["maximum"].(float64); ok && n > v {
		return false
	}
	return true
}
