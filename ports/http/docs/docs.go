package docs

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"sync"

	"github.com/gofiber/fiber/v2"
)

// Path is where the reference lives on the public listener.
const Path = "/docs"

//go:embed reference.html.tmpl
var pageTemplate string

//go:embed reference.css
var stylesheet []byte

// Reference is the page, rendered from the document on the first request and kept:
// rendering costs tens of milliseconds of CPU, which every start paid for a page few open.
type Reference struct {
	html func() ([]byte, error)
}

// NewReference renders the OpenAPI document (JSON, from documentJSON; the composition
// root hands it over from the public API's port, so that no port imports another) into
// the reference page, on the first request (TestDocsReferenceRendersTheDocument).
func NewReference(documentJSON func() ([]byte, error)) *Reference {
	return &Reference{html: sync.OnceValues(func() ([]byte, error) {
		raw, err := documentJSON()
		if err != nil {
			return nil, err
		}
		return render(raw)
	})}
}

// render builds the page from the document.
func render(documentJSON []byte) ([]byte, error) {
	p, err := build(documentJSON)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New("reference").Parse(pageTemplate)
	if err != nil {
		return nil, fmt.Errorf("docs: parse template: %w", err)
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("docs: render: %w", err)
	}
	return buf.Bytes(), nil
}

// Mount serves the page and its stylesheet, public, with a strict policy: nothing but
// this origin's stylesheet may load, no script runs, no framing.
func Mount(app *fiber.App, ref *Reference) {
	headers := func(c *fiber.Ctx) {
		c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderReferrerPolicy, "same-origin")
		c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	}
	app.Get(Path, func(c *fiber.Ctx) error {
		html, err := ref.html()
		if err != nil {
			return err
		}
		headers(c)
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return c.Send(html)
	})
	app.Get(Path+"/reference.css", func(c *fiber.Ctx) error {
		headers(c)
		c.Set(fiber.HeaderContentType, "text/css; charset=utf-8")
		return c.Send(stylesheet)
	})
}
