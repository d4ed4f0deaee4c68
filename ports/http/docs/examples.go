package docs

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// ExamplesFile is the examples file, relative to this package: written by
// `make docs-examples` (TestDocsExamples with CREATORAPI_WRITE_DOCS_EXAMPLES=1) from
// calls to a running service, and checked against the service by TestDocsExamples.
const ExamplesFile = "examples.json"

//go:embed examples.json
var examplesJSON []byte

// Example is one operation's call and answer as the running service gave it, with ids
// and cursors normalised (tests/docs_examples_test.go).
type Example struct {
	Curl     string `json:"curl"`
	Request  string `json:"request,omitempty"` // the JSON body sent, indented
	Status   int    `json:"status"`
	Response string `json:"response"` // the JSON body answered, indented
}

// Examples maps an operationId to its example.
type Examples map[string]Example

func loadExamples() (Examples, error) {
	var ex Examples
	if err := json.Unmarshal(examplesJSON, &ex); err != nil {
		return nil, fmt.Errorf("docs: parse %s: %w", ExamplesFile, err)
	}
	return ex, nil
}
