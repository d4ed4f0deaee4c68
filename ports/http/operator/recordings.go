package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type addRecordingRequest struct {
	LiveSessionID   string `json:"liveSessionId" validate:"required,max=64"`
	DurationSeconds *int   `json:"durationSeconds" validate:"required,gte=1,lte=86400"`
}

// RecordingRoutes: POST W/recordings.
func RecordingRoutes(app livesessions.Application, dec *web.Decoder) Routes {
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/recordings", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			var req addRecordingRequest
			if err := dec.Body(c, &req); err != nil {
				return err
			}
			r, err := app.Commands.AddRecording.Handle(c.UserContext(), command.AddRecording{
				WorkspaceID: c.Params("org"), LiveSessionID: req.LiveSessionID, DurationSeconds: *req.DurationSeconds,
			})
			if err != nil {
				return err
			}
			return created(c, r)
		}}},
	}
}
