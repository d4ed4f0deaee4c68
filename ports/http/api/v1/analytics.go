package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// AnalyticsEndpoints serves GET /analytics/summary.
func AnalyticsEndpoints(app analytics.Application) []Endpoint {
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/analytics/summary", Scope: keys.ReadAnalytics, Handler: func(c *fiber.Ctx) error {
			if err := OnlyParams(c, "from", "to"); err != nil {
				return err
			}
			for _, name := range []string{"from", "to"} {
				if c.Context().QueryArgs().Has(name) && c.Query(name) == "" {
					return web.Invalid(name, "%s must be a UTC date as YYYY-MM-DD; leave it out for the default", name)
				}
			}
			s, err := app.Queries.GetSummary.Handle(c.UserContext(), query.GetSummary{
				WorkspaceID: PrincipalOf(c).WorkspaceID, From: c.Query("from"), To: c.Query("to"),
			})
			if err != nil {
				return err
			}
			return c.JSON(s)
		}},
	}
}
