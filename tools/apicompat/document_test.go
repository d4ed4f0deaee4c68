package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oasdiff/oasdiff/checker"
	"go.yaml.in/yaml/v3"
)

const repoRoot = "../.."

func readRepoFile(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot, path))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func currentDocument(t *testing.T) []byte {
	return readRepoFile(t, "ports/http/api/v1/openapi/openapi.yaml")
}

func releasedDocument(t *testing.T) []byte {
	return readRepoFile(t, "ports/http/api/v1/openapi/released/v1.yaml")
}

// edited returns the document with edit applied to its tree (maps and lists as decoded).
func edited(t *testing.T, document []byte, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(document, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// at walks keys down the tree; a missing key fails the test (the edit would be a no-op).
func at(t *testing.T, doc map[string]any, keys ...string) map[string]any {
	t.Helper()
	node := doc
	for _, k := range keys {
		next, ok := node[k].(map[string]any)
		if !ok {
			t.Fatalf("the document has no %s", strings.Join(keys, " > "))
		}
		node = next
	}
	return node
}

func rules(findings []Finding) []string {
	out := make([]string, 0, len(findings))
	for _, f := range findings {
		out = append(out, f.Rule)
	}
	return out
}

func check(t *testing.T, released, current []byte) Report {
	t.Helper()
	report, err := CheckDocument(released, current)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func TestGatePassesTheCurrentDocument(t *testing.T) {
	report := check(t, releasedDocument(t), currentDocument(t))
	if len(report.Breaking) > 0 {
		t.Fatalf("the current document breaks v1: %v", report.Breaking)
	}
	same := check(t, releasedDocument(t), releasedDocument(t))
	if len(same.Breaking)+len(same.Additive) > 0 {
		t.Fatalf("the released document differs from itself: %+v", same)
	}
}

func TestGateFailsOnBreakingChanges(t *testing.T) {
	released := releasedDocument(t)
	cases := []struct {
		name string
		edit func(t *testing.T, doc map[string]any)
		want string // a rule among the breaking findings
	}{
		{"an operation removed", func(t *testing.T, doc map[string]any) {
			delete(at(t, doc, "paths"), "/api/v1/orders")
		}, "api-path-removed-without-deprecation"},
		{"a method of a path removed", func(t *testing.T, doc map[string]any) {
			delete(at(t, doc, "paths", "/api/v1/students"), "post")
		}, "api-removed-without-deprecation"},
		{"a required response field removed", func(t *testing.T, doc map[string]any) {
			optional(t, doc, "Student", "lastName")
			delete(at(t, doc, "components", "schemas", "Student", "properties"), "lastName")
		}, "response-required-property-removed"},
		{"an optional response field removed", func(t *testing.T, doc map[string]any) {
			// Every released field is required; released and current here both list
			// Student.externalId as optional, and the current one drops it.
			delete(at(t, doc, "components", "schemas", "Student", "properties"), "externalId")
		}, "response-optional-property-removed"},
		{"a response field's type changed", func(t *testing.T, doc map[string]any) {
			at(t, doc, "components", "schemas", "Student", "properties", "firstName")["type"] = "integer"
		}, "response-property-type-changed"},
		{"a new required parameter", func(t *testing.T, doc map[string]any) {
			get := at(t, doc, "paths", "/api/v1/courses", "get")
			get["parameters"] = append(get["parameters"].([]any), map[string]any{
				"name": "region", "in": "query", "required": true, "schema": map[string]any{"type": "string"}})
		}, "new-required-request-parameter"},
		{"a parameter made required", func(t *testing.T, doc map[string]any) {
			at(t, doc, "components", "parameters", "Limit")["required"] = true
		}, "request-parameter-became-required"},
		{"a parameter removed", func(t *testing.T, doc map[string]any) {
			get := at(t, doc, "paths", "/api/v1/orders", "get")
			get["parameters"] = slices.DeleteFunc(get["parameters"].([]any), func(p any) bool {
				return p.(map[string]any)["name"] == "studentId"
			})
		}, "request-parameter-removed"},
		{"an enum value removed", func(t *testing.T, doc map[string]any) {
			at(t, doc, "components", "schemas", "OrderStatus")["enum"] = []any{"paid", "refunded"}
		}, "request-parameter-enum-value-removed"},
		{"a response enum value removed", func(t *testing.T, doc map[string]any) {
			at(t, doc, "components", "schemas", "EnrollmentStatus")["enum"] = []any{"active", "revoked"}
		}, "response-property-enum-value-removed"},
		{"a request field removed from a strict body", func(t *testing.T, doc map[string]any) {
			body := at(t, doc, "paths", "/api/v1/students", "post", "requestBody", "content", "application/json", "schema")
			if ref, ok := body["$ref"].(string); ok {
				body = at(t, doc, "components", "schemas", strings.TrimPrefix(ref, "#/components/schemas/"))
			}
			delete(at(t, body, "properties"), "externalId")
		}, "request-property-removed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := released
			if strings.Contains(c.name, "optional") {
				base = edited(t, released, func(doc map[string]any) { optional(t, doc, "Student", "externalId") })
			}
			broken := edited(t, base, func(doc map[string]any) { c.edit(t, doc) })
			report := check(t, base, broken)
			if !slices.Contains(rules(report.Breaking), c.want) {
				t.Fatalf("want %s among the breaking findings, got breaking %v, additive %v", c.want, report.Breaking, report.Additive)
			}
		})
	}
}

// optional takes field off the schema's required list.
func optional(t *testing.T, doc map[string]any, schema, field string) {
	s := at(t, doc, "components", "schemas", schema)
	required, _ := s["required"].([]any)
	if !slices.Contains(required, any(field)) {
		t.Fatalf("%s.%s is not required", schema, field)
	}
	s["required"] = slices.DeleteFunc(required, func(v any) bool { return v == field })
}

func TestGateListsAdditiveChanges(t *testing.T) {
	released := releasedDocument(t)
	added := edited(t, released, func(doc map[string]any) {
		paths := at(t, doc, "paths")
		list := at(t, paths, "/api/v1/courses", "get")
		events := map[string]any{}
		for k, v := range list {
			events[k] = v
		}
		events["operationId"] = "listEvents"
		paths["/api/v1/events"] = map[string]any{"get": events}
		at(t, doc, "components", "schemas", "Student", "properties")["livemode"] = map[string]any{"type": "boolean"}
		get := at(t, paths, "/api/v1/students", "get")
		get["parameters"] = append(get["parameters"].([]any), map[string]any{
			"name": "externalId", "in": "query", "schema": map[string]any{"type": "string"}})
		at(t, doc, "components", "schemas", "EnrollmentStatus")["enum"] = []any{"active", "revoked", "completed", "paused"}
	})
	report := check(t, released, added)
	if len(report.Breaking) > 0 {
		t.Fatalf("additive changes reported as breaking: %v", report.Breaking)
	}
	for _, want := range []string{"endpoint-added", "response-optional-property-added", "new-optional-request-parameter", "response-property-enum-value-added"} {
		if !slices.Contains(rules(report.Additive), want) {
			t.Errorf("want %s listed as additive, got %v", want, report.Additive)
		}
	}
}

// A webhook's body is checked from its receiver's side: new fields are additive, a field
// that may now be null or missing, a field gone and a whole event type gone are breaking.
func TestGateJudgesWebhooksFromTheReceiversSide(t *testing.T) {
	released := releasedDocument(t)
	added := edited(t, released, func(doc map[string]any) {
		envelope := at(t, doc, "components", "schemas", "EventEnvelope")
		at(t, envelope, "properties")["livemode"] = map[string]any{"type": "boolean"}
		envelope["required"] = append(envelope["required"].([]any), "livemode")
	})
	report := check(t, released, added)
	if len(report.Breaking) > 0 {
		t.Fatalf("a new envelope field reported as breaking: %v", report.Breaking)
	}
	if !slices.Contains(rules(report.Additive), "new-required-request-property") {
		t.Fatalf("the new envelope field is not listed: %v", report.Additive)
	}

	cases := []struct {
		name string
		edit func(t *testing.T, doc map[string]any)
		want string
	}{
		{"a payload field made optional", func(t *testing.T, doc map[string]any) {
			optional(t, doc, "Certificate", "courseId")
		}, "request-property-became-optional"},
		{"an event type removed", func(t *testing.T, doc map[string]any) {
			delete(at(t, doc, "webhooks"), "recording.ready")
		}, "webhook-removed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			report := check(t, released, edited(t, released, func(doc map[string]any) { c.edit(t, doc) }))
			if !slices.Contains(rules(report.Breaking), c.want) {
				t.Fatalf("want %s breaking, got breaking %v", c.want, report.Breaking)
			}
		})
	}
}

// Every rule our tables name is one oasdiff knows: a misspelt id would silently keep
// oasdiff's default.
func TestRulesNameKnownChecks(t *testing.T) {
	known := checker.GetAllRuleIds()
	for _, table := range []map[string]checker.Level{severityOverrides, webhookSeverityOverrides} {
		for id := range table {
			if !slices.Contains(known, id) {
				t.Errorf("unknown oasdiff rule %q", id)
			}
		}
	}
	for id := range ignored {
		if !slices.Contains(known, id) {
			t.Errorf("unknown oasdiff rule %q", id)
		}
	}
}
