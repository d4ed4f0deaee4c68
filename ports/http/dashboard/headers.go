package dashboard

import (
	"embed"
	"mime"
	"path"

	"github.com/gofiber/fiber/v2"
)

// contentSecurityPolicy allows only our own script and stylesheet: no inline script,
// no other origin, no framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

func securityHeaders(c *fiber.Ctx) error {
	c.Set("Content-Security-Policy", contentSecurityPolicy)
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set("Referrer-Policy", "same-origin")
	c.Set("X-Frame-Options", "DENY")
	return c.Next()
}

//go:embed assets/*
var assets embed.FS

func serveAsset(c *fiber.Ctx) error {
	name := path.Base(c.Params("name"))
	body, err := assets.ReadFile("assets/" + name)
	if err != nil {
		return c.Status(fiber.StatusNotFound).SendString("not found")
	}
	c.Set(fiber.HeaderContentType, mime.TypeByExtension(path.Ext(name)))
	c.Set(fiber.HeaderCacheControl, "public, max-age=3600")
	return c.Send(body)
}
