package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestGatePassesTheCurrentPayloads(t *testing.T) {
	public, err := WebhookTypes(currentDocument(t))
	if err != nil {
		t.Fatal(err)
	}
	report, err := CheckEvents(os.DirFS(filepath.Join(repoRoot, "ports/http/api/v1/openapi/released/v1-events")),
		os.DirFS(filepath.Join(repoRoot, "tests/testdata/events")), public)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Breaking) > 0 {
		t.Fatalf("the current golden payloads break v1: %v", report.Breaking)
	}
	if len(public) != 16 {
		t.Fatalf("want the 13 public event types and the 3 operational ones from the document, got %v", public)
	}
}

const releasedStudent = `{"id":"evt_1","type":"student.created","data":{"id":"stu_1","metadata":{"plan":"pro"},"enrollments":[{"id":"enr_1","revokedAt":null,"progress":{"percent":50}}]}}
{"id":"evt_2","type":"student.created","data":{"id":"stu_2","metadata":{},"enrollments":[]}}
`

func payloads(files map[string]string) fstest.MapFS {
	out := fstest.MapFS{}
	for name, body := range files {
		out[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return out
}

func TestGateFailsOnBreakingPayloadChanges(t *testing.T) {
	released := payloads(map[string]string{"student.created.golden": releasedStudent})
	cases := []struct {
		name, current, want, field string
	}{
		{"a field removed", strings.ReplaceAll(releasedStudent, `"progress":{"percent":50}`, `"progress":{}`),
			"event-field-removed", "data.enrollments[].progress.percent"},
		{"a nested object removed", strings.ReplaceAll(releasedStudent, `,"progress":{"percent":50}`, ``),
			"event-field-removed", "data.enrollments[].progress"},
		{"a type changed", strings.ReplaceAll(releasedStudent, `"percent":50`, `"percent":"50%"`),
			"event-field-type-changed", "data.enrollments[].progress.percent"},
		{"a null field given another type than before", strings.ReplaceAll(
			strings.ReplaceAll(releasedStudent, `"revokedAt":null`, `"revokedAt":"2026-11-21T10:00:00Z"`),
			`"id":"enr_1"`, `"id":7`), "event-field-type-changed", "data.enrollments[].id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			report, err := CheckEvents(released, payloads(map[string]string{"student.created.golden": c.current}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(report.Breaking, func(f Finding) bool {
				return f.Rule == c.want && strings.Contains(f.Text, c.field+" ")
			}) {
				t.Fatalf("want %s on %s, got %v", c.want, c.field, report.Breaking)
			}
		})
	}

	t.Run("an event type removed", func(t *testing.T) {
		report, err := CheckEvents(released, payloads(map[string]string{"student.updated.golden": releasedStudent}), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(rules(report.Breaking), "event-type-removed") {
			t.Fatalf("want event-type-removed, got %v", report.Breaking)
		}
	})
}

func TestGateListsAdditivePayloadChanges(t *testing.T) {
	released := payloads(map[string]string{"student.created.golden": releasedStudent})
	current := payloads(map[string]string{
		// A new envelope field, a value now set where the sample had null, other metadata
		// keys (sample data of a free-form map), an integer sample where one had a fraction.
		"student.created.golden": strings.NewReplacer(`"type":`, `"livemode":false,"type":`,
			`"revokedAt":null`, `"revokedAt":"2026-11-21T10:00:00Z"`, `"plan":"pro"`, `"tier":"gold"`,
			`"percent":50`, `"percent":49.5`).Replace(releasedStudent),
		"order.paid.golden":       `{"id":"evt_3","type":"order.paid","data":{}}`,
		"lesson.completed.golden": `{"id":"evt_4","type":"lesson.completed","data":{}}`, // internal: not listed
	})
	report, err := CheckEvents(released, current, []string{"student.created", "order.paid"})
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Breaking) > 0 {
		t.Fatalf("additive payload changes reported as breaking: %v", report.Breaking)
	}
	var listed []string
	for _, f := range report.Additive {
		listed = append(listed, f.Rule+" "+f.Path+" "+f.Text)
	}
	want := []string{
		"event-field-added event:student.created field livemode (boolean)",
		"event-type-added event:order.paid a payload not in the released copy",
	}
	if !slices.Equal(listed, want) {
		t.Fatalf("additive findings\n got %q\nwant %q", listed, want)
	}
}
