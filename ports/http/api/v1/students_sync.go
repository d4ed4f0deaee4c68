package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// StudentSyncEndpoints serves what a CRM sync needs of one student: GET and PATCH
// /students/{id}.
func StudentSyncEndpoints(app students.Application, dec *web.Decoder) []Endpoint {
	h := studentSyncHandlers{app: app, dec: dec}
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/students/:id", Scope: keys.ReadStudents, Handler: h.get},
		{Method: fiber.MethodPatch, Path: "/students/:id", Scope: keys.WriteStudents, Handler: h.patch},
	}
}

type studentSyncHandlers struct {
	app students.Application
	dec *web.Decoder
}

// get answers the student; another workspace's or a deleted one is 404.
func (h studentSyncHandlers) get(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	s, err := h.app.Queries.GetStudent.Handle(c.UserContext(), query.GetStudent{WorkspaceID: PrincipalOf(c).WorkspaceID, StudentID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// patch applies a merge patch and answers 200 with the student (student.updated when
// something changed). A key that may not read students gets only the id, as from POST
// /students: writing must not open the record to a write-only key.
func (h studentSyncHandlers) patch(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	body, err := web.RawBody(c)
	if err != nil {
		return err
	}
	changes, err := decodeStudentChanges(h.dec, body)
	if err != nil {
		return err
	}
	p := PrincipalOf(c)
	s, err := h.app.Commands.UpdateStudent.Handle(c.UserContext(), changes.update(p.WorkspaceID, c.Params("id")))
	if err != nil {
		return err
	}
	if !p.Allows(keys.ReadStudents) {
		return c.JSON(studentReference{ID: s.ID})
	}
	return c.JSON(s)
}
