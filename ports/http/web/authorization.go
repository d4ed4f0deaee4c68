package web

import "github.com/gofiber/fiber/v2"

// OneAuthorization returns the request's Authorization header, or a 422
// invalid_request when it is given more than once: which credential counts would be a
// guess (a proxy adding one, a client another), so neither is used.
func OneAuthorization(c *fiber.Ctx) (string, error) {
	all := c.Request().Header.PeekAll(fiber.HeaderAuthorization)
	switch len(all) {
	case 0:
		return "", nil
	case 1:
		return string(all[0]), nil
	}
	return "", Invalid(fiber.HeaderAuthorization, "the Authorization header is given more than once; send one")
}
