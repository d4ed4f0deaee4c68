package dashboard

import "github.com/gofiber/fiber/v2"

// cacheControlOf is the Cache-Control of a rendered page: a signed-in page shows
// personal data (members' addresses, the audit log, delivery payloads), which no cache,
// shared or the browser's own disk and back button, may keep; the signed-out pages
// (sign-in, the link's confirmation) only revalidate.
func cacheControlOf(c *fiber.Ctx) string {
	if sessionOf(c) != nil {
		return "no-store"
	}
	return "no-cache"
}
