package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type issueCertificateRequest struct {
	StudentID string `json:"studentId" validate:"required,max=64"`
	CourseID  string `json:"courseId" validate:"required,max=64"`
}

// CertificateRoutes: POST W/certificates (201 when issued, 200 with the existing one).
func CertificateRoutes(app certificates.Application, dec *web.Decoder) Routes {
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/certificates", Handlers: []fiber.Handler{func(c *fiber.Ctx) error {
			var req issueCertificateRequest
			if err := dec.Body(c, &req); err != nil {
				return err
			}
			res, err := app.Commands.IssueCertificate.Handle(c.UserContext(), command.IssueCertificate{
				WorkspaceID: c.Params("org"), StudentID: req.StudentID, CourseID: req.CourseID,
			})
			if err != nil {
				return err
			}
			if res.Created {
				return created(c, res.Value)
			}
			return c.JSON(res.Value)
		}}},
	}
}
