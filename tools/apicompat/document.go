package main

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// Finding is one difference between the released and the current document.
type Finding struct {
	Rule      string // oasdiff's rule id, e.g. api-path-removed-without-deprecation
	Operation string // GET, POST... ("" for document-wide findings)
	Path      string // the path or "webhook:<type>"
	Text      string
}

func (f Finding) String() string {
	where := f.Path
	if f.Operation != "" {
		where = f.Operation + " " + f.Path
	}
	if where == "" {
		return fmt.Sprintf("%s: %s", f.Rule, f.Text)
	}
	return fmt.Sprintf("%s: %s: %s", f.Rule, where, f.Text)
}

// Report sorts the findings: Breaking ones fail the gate, Additive ones are listed.
type Report struct {
	Breaking []Finding
	Additive []Finding
}

// CheckDocument compares the current OpenAPI document with the released one under our
// rules (rules.go): oasdiff's checks, every WARN and ERR of them breaking, with the
// severities rules.go overrides (webhooks by rules of their own).
func CheckDocument(released, current []byte) (Report, error) {
	loader := openapi3.NewLoader()
	base, err := load.NewSpecInfoFromData(loader, released, "released")
	if err != nil {
		return Report{}, fmt.Errorf("load the released document: %w", err)
	}
	revision, err := load.NewSpecInfoFromData(openapi3.NewLoader(), current, "current")
	if err != nil {
		return Report{}, fmt.Errorf("load the current document: %w", err)
	}
	report, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), base, revision)
	if err != nil {
		return Report{}, fmt.Errorf("diff the documents: %w", err)
	}
	config := checker.NewConfig(checker.GetAllChecks(), checker.WithSeverityLevels(severityOverrides))
	changes := checker.CheckBackwardCompatibilityUntilLevel(config, report, sources, checker.INFO)

	localizer := checker.NewDefaultLocalizer()
	var out Report
	for _, change := range changes {
		f := Finding{Rule: change.GetId(), Operation: change.GetOperation(), Path: change.GetPath(),
			Text: change.GetUncolorizedText(localizer)}
		if ignored[f.Rule] {
			continue
		}
		if levelOf(change) >= checker.WARN {
			out.Breaking = append(out.Breaking, f)
		} else {
			out.Additive = append(out.Additive, f)
		}
	}
	return out, nil
}

// WebhookTypes lists the event types under the document's webhooks.
func WebhookTypes(document []byte) ([]string, error) {
	doc, err := openapi3.NewLoader().LoadFromData(document)
	if err != nil {
		return nil, fmt.Errorf("load the document: %w", err)
	}
	types := make([]string, 0, len(doc.Webhooks))
	for name := range doc.Webhooks {
		types = append(types, name)
	}
	return types, nil
}
