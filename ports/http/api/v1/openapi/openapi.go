// Package openapi holds the OpenAPI 3.1 document of /api/v1, written by hand in
// openapi.yaml and embedded in the binary, and serves it as JSON. Tests in tests/ keep
// it and the code in step: every mounted route is documented, every documented
// operation is mounted, and every response and webhook body validates against it.
package openapi

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/gofiber/fiber/v2"
	"go.yaml.in/yaml/v3"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Path is where the document is served, without a key.
const Path = "/api/v1/openapi.json"

//go:embed openapi.yaml
var source []byte

// YAML is the document as written.
func YAML() []byte { return bytes.Clone(source) }

// Document is the document converted to JSON once, with its ETag.
type Document struct {
	JSON []byte
	ETag string
}

// Load converts the embedded YAML to JSON.
func Load() (*Document, error) {
	var tree any
	if err := yaml.Unmarshal(source, &tree); err != nil {
		return nil, fmt.Errorf("openapi: parse embedded document: %w", err)
	}
	raw, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("openapi: encode document as JSON: %w", err)
	}
	sum := sha256.Sum256(raw)
	return &Document{JSON: raw, ETag: `"` + hex.EncodeToString(sum[:8]) + `"`}, nil
}

// Served is the document as the public listener serves it: Load, run on the first call
// and kept. Converting the YAML costs tens of milliseconds of CPU, which every start paid
// (each serve, each of the hundreds of graphs the tests boot) for a route few call; the
// YAML is embedded, so the first request fails exactly when a start would have
// (TestOpenAPIDocumentIsServedWithoutAKey converts it).
type Served func() (*Document, error)

// NewServed defers Load to the first request.
func NewServed() Served { return sync.OnceValues(Load) }

// JSON is the document as JSON, for the /docs reference.
func (s Served) JSON() ([]byte, error) {
	doc, err := s()
	if err != nil {
		return nil, err
	}
	return doc.JSON, nil
}

// Mount serves the document at Path. Call it before the /api middleware
// (authentication, rate limits): the contract is public, like the dashboard's sign-in
// page, and answering it costs no database work. Other methods get 405.
func Mount(app *fiber.App, served Served) {
	web.Mount(app, []web.Route{{Method: fiber.MethodGet, Path: Path, Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
		doc, err := served()
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderETag, doc.ETag)
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		if c.Get(fiber.HeaderIfNoneMatch) == doc.ETag {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(doc.JSON)
	}}}})
}
