package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// EnrollmentRevokeEndpoints serves DELETE /enrollments/{id}: the enrollment is revoked,
// not erased (its history stays, and POST /enrollments reactivates it). The answer is
// 200 with the revoked enrollment; enrollment.revoked is emitted by the request that
// revoked it, and a repeat answers the same enrollment and emits nothing.
func EnrollmentRevokeEndpoints(app enrollments.Application) []Endpoint {
	return []Endpoint{{Method: fiber.MethodDelete, Path: "/enrollments/:id", Scope: keys.WriteEnrollments, Handler: func(c *fiber.Ctx) error {
		if err := OnlyParams(c); err != nil {
			return err
		}
		e, err := app.Commands.RevokeEnrollment.Handle(c.UserContext(), command.RevokeEnrollment{
			WorkspaceID: PrincipalOf(c).WorkspaceID, EnrollmentID: c.Params("id"),
		})
		if err != nil {
			return err
		}
		return c.JSON(e)
	}}}
}
