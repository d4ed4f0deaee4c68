package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type grantEnrollmentRequest struct {
	StudentID string `json:"studentId" validate:"required,max=100"`
	CourseID  string `json:"courseId" validate:"required,max=100"`
}

type recordProgressRequest struct {
	StudentID string `json:"studentId" validate:"required,max=100"`
	LessonID  string `json:"lessonId" validate:"required,max=100"`
}

// EnrollmentRoutes: POST W/enrollments, GET W/enrollments/{id}, POST W/enrollments/{id}/revoke
// and POST W/progress.
func EnrollmentRoutes(app enrollments.Application, dec *web.Decoder) Routes {
	h := enrollmentRoutes{app: app, dec: dec}
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/enrollments", Handlers: []fiber.Handler{h.grant}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/enrollments/:id", Handlers: []fiber.Handler{h.get}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/enrollments/:id/revoke", Handlers: []fiber.Handler{h.revoke}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/progress", Handlers: []fiber.Handler{h.progress}},
	}
}

type enrollmentRoutes struct {
	app enrollments.Application
	dec *web.Decoder
}

// grant enrolls with source operator: 201 new, 200 existing or reactivated.
func (h enrollmentRoutes) grant(c *fiber.Ctx) error {
	var req grantEnrollmentRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	res, err := h.app.Commands.GrantEnrollment.Handle(c.UserContext(), command.GrantEnrollment{
		WorkspaceID: c.Params("org"), StudentID: req.StudentID, CourseID: req.CourseID, Source: "operator",
	})
	if err != nil {
		return err
	}
	if res.Created {
		return created(c, res.Value)
	}
	return c.JSON(res.Value)
}

func (h enrollmentRoutes) get(c *fiber.Ctx) error {
	e, err := h.app.Queries.GetEnrollment.Handle(c.UserContext(), query.GetEnrollment{WorkspaceID: c.Params("org"), EnrollmentID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(e)
}

func (h enrollmentRoutes) revoke(c *fiber.Ctx) error {
	e, err := h.app.Commands.RevokeEnrollment.Handle(c.UserContext(), command.RevokeEnrollment{WorkspaceID: c.Params("org"), EnrollmentID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(e)
}

// progress answers 201 when the lesson is newly completed, 200 when it already was.
func (h enrollmentRoutes) progress(c *fiber.Ctx) error {
	var req recordProgressRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	res, err := h.app.Commands.RecordProgress.Handle(c.UserContext(), command.RecordProgress{
		WorkspaceID: c.Params("org"), StudentID: req.StudentID, LessonID: req.LessonID,
	})
	if err != nil {
		return err
	}
	if res.Created {
		return created(c, res.Value)
	}
	return c.JSON(res.Value)
}
