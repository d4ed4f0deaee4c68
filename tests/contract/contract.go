// Package contract checks traffic against the OpenAPI document embedded in the binary
// (ports/http/api/v1/openapi), with pb33f's libopenapi-validator: API responses against
// their operations, unknown routes against the error envelope, webhook deliveries
// against the document's webhooks section. Tests, the fuzzer and the drift check use it.
package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
)

// Prefix is the part of the URL space the document covers.
const Prefix = "/api/v1"

// Operation is one documented method and path (as the document writes it: {id}).
type Operation struct {
	Method string
	Path   string
	Op     *v3.Operation
}

// Contract is the parsed document with its validators.
type Contract struct {
	Model      *v3.Document
	validator  validator.Validator
	schemas    schema_validation.SchemaValidator
	Operations []Operation
}

// Load parses the embedded document.
func Load() (*Contract, error) {
	doc, err := libopenapi.NewDocument(openapi.YAML())
	if err != nil {
		return nil, fmt.Errorf("contract: parse document: %w", err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("contract: build model: %w", err)
	}
	c := &Contract{
		Model:     &model.Model,
		validator: validator.NewValidatorFromV3Model(&model.Model, config.WithFormatAssertions()),
		schemas:   schema_validation.NewSchemaValidator(config.WithFormatAssertions()),
	}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			c.Operations = append(c.Operations, Operation{Method: strings.ToUpper(method), Path: path, Op: op})
		}
	}
	return c, nil
}

// Documented tells whether method and a concrete path match a documented operation.
func (c *Contract) Documented(method, path string) (Operation, bool) {
	// A concrete path is matched before its templated counterparts (OpenAPI 3.1, "Path
	// Templating Matching"): GET /students/batch is no getStudent of a student "batch".
	concrete := false
	for _, o := range c.Operations {
		concrete = concrete || o.Path == path
	}
	for _, o := range c.Operations {
		if o.Method == method && (o.Path == path || !concrete && matchTemplate(o.Path, path)) {
			return o, true
		}
	}
	return Operation{}, false
}

func matchTemplate(template, path string) bool {
	ts, ps := strings.Split(template, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if strings.HasPrefix(ts[i], "{") && strings.HasSuffix(ts[i], "}") {
			if ps[i] == "" {
				return false
			}
			continue
		}
		if ts[i] != ps[i] {
			return false
		}
	}
	return true
}

// codeOfStatus is the only error code each status may carry.
var codeOfStatus = map[int]string{
	401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
	422: "invalid_request", 429: "rate_limited", 500: "internal_error",
}

// CheckResponse returns what is wrong with an answer to req under /api/v1 (nothing for
// other paths). A documented operation's answer is validated with libopenapi-validator
// (status, headers, body); any other answer must be an error envelope whose code
// belongs to its status. HEAD answers GET's headers without a body and is skipped.
func (c *Contract) CheckResponse(req *http.Request, status int, header http.Header, body []byte) []string {
	if !strings.HasPrefix(req.URL.Path, Prefix+"/") || req.Method == http.MethodHead {
		return nil
	}
	var problems []string
	if status >= 400 {
		problems = append(problems, c.checkEnvelope(status, body)...)
	}
	if header.Get("X-Request-Id") == "" {
		problems = append(problems, "no X-Request-Id header")
	}
	if _, ok := c.Documented(req.Method, req.URL.Path); !ok {
		return problems
	}
	resp := &http.Response{StatusCode: status, Header: header.Clone(), Body: io.NopCloser(bytes.NewReader(body)), Request: req}
	if resp.Header.Get("Content-Type") == "" && len(body) > 0 {
		resp.Header.Set("Content-Type", "application/json")
	}
	if ok, errs := c.validator.ValidateHttpResponse(req, resp); !ok {
		for _, e := range errs {
			problems = append(problems, describe(e.Message, e.Reason, e.SchemaValidationErrors))
		}
	}
	return problems
}

func (c *Contract) checkEnvelope(status int, body []byte) []string {
	want, known := codeOfStatus[status]
	if !known {
		return []string{fmt.Sprintf("status %d is not one the document gives", status)}
	}
	if problems := c.CheckSchema("Error", body); len(problems) > 0 {
		return problems
	}
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &env)
	if env.Error.Code != want {
		return []string{fmt.Sprintf("status %d carries error.code %q, want %q", status, env.Error.Code, want)}
	}
	return nil
}

// CheckSchema validates body against components.schemas[name].
func (c *Contract) CheckSchema(name string, body []byte) []string {
	proxy, ok := c.Model.Components.Schemas.Get(name)
	if !ok {
		return []string{"no schema " + name + " in the document"}
	}
	return c.checkAgainst(proxy.Schema(), body)
}

func (c *Contract) checkAgainst(s *base.Schema, body []byte) []string {
	ok, errs := c.schemas.ValidateSchemaBytes(s, body)
	if ok {
		return nil
	}
	var problems []string
	for _, e := range errs {
		problems = append(problems, describe(e.Message, e.Reason, e.SchemaValidationErrors))
	}
	return problems
}
