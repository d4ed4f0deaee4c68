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

// Mount serves the document at Path. Call it before the /api middleware
// (authentication, rate limits): the contract is public, like the dashboard's sign-in
// page, and answering it costs no database work. Other methods get 405.
func Mount(app *fiber.App, doc *Document) {
	web.Mount(app, []web.Route{{Method: fiber.MethodGet, Path: Path, Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderETag, doc.ETag)
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
		if c.Get(fiber.HeaderIfNoneMatch) == doc.ETag {
			return c.SendStatus(fiber.StatusNotModified)
		}
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(doc.JSON)
	}}}})
}
