package web

import (
	"github.com/gofiber/fiber/v2"
)

// CheckRequestText applies TextFault to the route's path parameters and to every query
// parameter's name and value (percent-decoded): neither may carry multiline text.
func CheckRequestText(c *fiber.Ctx) error {
	for _, name := range c.Route().Params {
		if err := CheckText(name, c.Params(name), false); err != nil {
			return err
		}
	}
	var err error
	c.Context().QueryArgs().VisitAll(func(k, v []byte) {
		if err != nil {
			return
		}
		if fault := TextFault(string(k), false); fault != "" {
			err = Invalid("query", "query parameter names %s", fault)
			return
		}
		err = CheckText(string(k), string(v), false)
	})
	return err
}

// checkRequestText is CheckRequestText as a route handler. Mount places it right before
// each endpoint's own handler, so that authentication, rate limits and scopes answer
// first (the documented check order) and no handler ever sees unchecked text.
func checkRequestText(c *fiber.Ctx) error {
	if err := CheckRequestText(c); err != nil {
		return err
	}
	return c.Next()
}
