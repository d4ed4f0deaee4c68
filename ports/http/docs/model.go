// Package docs renders the human reference at /docs on the server, from the same
// OpenAPI document the API serves (ports/http/api/v1/openapi): html/template over the
// parsed document, embedded assets, nothing loaded from another origin.
package docs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// page is what the template shows.
type page struct {
	Title, Version, Summary string
	Sections                []section
	Operations              []operation
	Scopes                  []scopeRow
	ErrorCodes              []string
	RateHeaders             []field
	Webhooks                []webhook
	DeliveryHeaders         []field
	Schemas                 []schema
}

type section struct {
	ID, Title  string
	Paragraphs []paragraph
}

// paragraph is a run of text split into plain and `code` pieces.
type paragraph []piece

type piece struct {
	Text string
	Code bool
}

type operation struct {
	ID, Method, Path, Summary, Tag string
	Description                    []paragraph
	Scope                          string
	Parameters                     []field
	RequestBody                    string
	Responses                      []response
	Example                        *Example // nil when examples.json has none for ID
}

type response struct {
	Status, Schema string
	Description    paragraph
}

type scopeRow struct {
	Scope      string
	Operations []string
}

type field struct {
	Name, In, Type string
	Description    paragraph
	Required       bool
}

type webhook struct {
	Type, Summary, Data string
	Description         []paragraph
}

type schema struct {
	Name        string
	Description []paragraph
	Fields      []field
	Variants    []string
}

// build reads the JSON form of the document.
func build(raw []byte) (*page, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("docs: parse document: %w", err)
	}
	d := reader{doc: doc}
	info := d.obj(doc, "info")
	p := &page{Title: d.str(info, "title"), Version: d.str(info, "version"), Summary: d.str(info, "summary")}
	p.Sections = sections(d.str(info, "description"))

	examples, err := loadExamples()
	if err != nil {
		return nil, err
	}
	scopes := map[string][]string{}
	paths := d.obj(doc, "paths")
	for _, path := range sortedKeys(paths) {
		item := d.obj(paths, path)
		for _, method := range []string{"get", "post", "put", "patch", "delete"} {
			op := d.obj(item, method)
			if op == nil {
				continue
			}
			o := operation{ID: d.str(op, "operationId"), Method: strings.ToUpper(method), Path: path, Summary: d.str(op, "summary"),
				Description: paragraphs(d.str(op, "description"))}
			if tags, _ := op["tags"].([]any); len(tags) > 0 {
				o.Tag, _ = tags[0].(string)
			}
			for _, req := range d.list(op, "security") {
				for _, roles := range req.(map[string]any) {
					for _, r := range roles.([]any) {
						o.Scope = r.(string)
						scopes[o.Scope] = append(scopes[o.Scope], o.Method+" "+o.Path)
					}
				}
			}
			for _, raw := range d.list(op, "parameters") {
				o.Parameters = append(o.Parameters, d.parameter(raw.(map[string]any)))
			}
			if body := d.obj(op, "requestBody"); body != nil {
				o.RequestBody = d.schemaName(d.obj(d.obj(d.obj(body, "content"), "application/json"), "schema"))
			}
			responses := d.obj(op, "responses")
			for _, status := range sortedKeys(responses) {
				r := d.resolve(responses[status].(map[string]any))
				o.Responses = append(o.Responses, response{Status: status, Description: inline(d.str(r, "description")),
					Schema: d.schemaName(d.obj(d.obj(d.obj(r, "content"), "application/json"), "schema"))})
			}
			if ex, ok := examples[o.ID]; ok {
				o.Example = &ex
			}
			p.Operations = append(p.Operations, o)
		}
	}
	for _, s := range sortedKeys(toAnyMap(scopes)) {
		p.Scopes = append(p.Scopes, scopeRow{Scope: s, Operations: scopes[s]})
	}

	components := d.obj(doc, "components")
	schemas := d.obj(components, "schemas")
	for _, code := range d.list(d.obj(schemas, "ErrorCode"), "enum") {
		p.ErrorCodes = append(p.ErrorCodes, code.(string))
	}
	headers := d.obj(components, "headers")
	for _, name := range sortedKeys(headers) {
		h := d.obj(headers, name)
		p.RateHeaders = append(p.RateHeaders, field{Name: name, Type: d.typeOf(d.obj(h, "schema")), Description: inline(d.str(h, "description"))})
	}

	hooks := d.obj(doc, "webhooks")
	for _, name := range d.keysInOrder("webhooks", hooks) {
		post := d.obj(d.obj(hooks, name), "post")
		body := d.resolve(d.obj(d.obj(d.obj(d.obj(post, "requestBody"), "content"), "application/json"), "schema"))
		w := webhook{Type: name, Summary: d.str(post, "summary"), Description: paragraphs(d.str(post, "description"))}
		for _, part := range d.list(body, "allOf") {
			if data := d.obj(d.obj(part.(map[string]any), "properties"), "data"); data != nil {
				w.Data = d.schemaName(data)
			}
		}
		p.Webhooks = append(p.Webhooks, w)
		if p.DeliveryHeaders == nil {
			for _, raw := range d.list(post, "parameters") {
				p.DeliveryHeaders = append(p.DeliveryHeaders, d.parameter(raw.(map[string]any)))
			}
		}
	}

	for _, name := range sortedKeys(schemas) {
		if strings.HasSuffix(name, "Event") && name != "EventEnvelope" {
			continue // one per webhook type: the envelope with its data, shown under Webhooks
		}
		p.Schemas = append(p.Schemas, d.schema(name, d.obj(schemas, name)))
	}
	return p, nil
}

func toAnyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
