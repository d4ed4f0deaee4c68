package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type createEnrollmentRequest struct {
	StudentID string `json:"studentId" validate:"required,max=100"`
	CourseID  string `json:"courseId" validate:"required,max=100"`
}

// EnrollmentEndpoints serves POST /enrollments.
func EnrollmentEndpoints(app enrollments.Application, dec *web.Decoder) []Endpoint {
	return []Endpoint{{Method: fiber.MethodPost, Path: "/enrollments", Scope: keys.WriteEnrollments, Handler: func(c *fiber.Ctx) error {
		if err := OnlyParams(c); err != nil {
			return err
		}
		var req createEnrollmentRequest
		if err := dec.Body(c, &req); err != nil {
			return err
		}
		res, err := app.Commands.GrantEnrollment.Handle(c.UserContext(), command.GrantEnrollment{
			WorkspaceID: PrincipalOf(c).WorkspaceID, StudentID: req.StudentID, CourseID: req.CourseID, Source: "api",
		})
		if err != nil {
			return err
		}
		// 201 only when this request stored the enrollment; an existing (or reactivated) one is 200.
		if res.Created {
			c.Status(fiber.StatusCreated)
		}
		return c.JSON(res.Value)
	}}}
}
