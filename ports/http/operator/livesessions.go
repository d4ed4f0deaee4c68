package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type scheduleSessionRequest struct {
	CourseID string `json:"courseId" validate:"required,max=64"`
	Title    string `json:"title" validate:"required,max=200"`
}

// LiveSessionRoutes: POST W/live-sessions, W/live-sessions/{id}/start, W/live-sessions/{id}/end.
func LiveSessionRoutes(app livesessions.Application, dec *web.Decoder) Routes {
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/live-sessions", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			var req scheduleSessionRequest
			if err := dec.Body(c, &req); err != nil {
				return err
			}
			s, err := app.Commands.ScheduleSession.Handle(c.UserContext(), command.ScheduleSession{
				WorkspaceID: c.Params("org"), CourseID: req.CourseID, Title: req.Title,
			})
			if err != nil {
				return err
			}
			return created(c, s)
		}}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/live-sessions/:id/start", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			s, err := app.Commands.StartSession.Handle(c.UserContext(), command.StartSession{WorkspaceID: c.Params("org"), LiveSessionID: c.Params("id")})
			if err != nil {
				return err
			}
			return c.JSON(s)
		}}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/live-sessions/:id/end", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			s, err := app.Commands.EndSession.Handle(c.UserContext(), command.EndSession{WorkspaceID: c.Params("org"), LiveSessionID: c.Params("id")})
			if err != nil {
				return err
			}
			return c.JSON(s)
		}}},
	}
}
