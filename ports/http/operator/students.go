package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// updateStudentRequest: an absent (or null) field stays as it is; metadata replaces the map.
// The domain validates the values and names the field.
type updateStudentRequest struct {
	Email     *string            `json:"email"`
	FirstName *string            `json:"firstName"`
	LastName  *string            `json:"lastName"`
	Metadata  *map[string]string `json:"metadata"`
}

// StudentRoutes: POST W/students, GET, PATCH and DELETE W/students/{id}.
func StudentRoutes(app students.Application, dec *web.Decoder) Routes {
	h := studentRoutes{app: app, dec: dec}
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/students", Handlers: []fiber.Handler{h.create}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/students/:id", Handlers: []fiber.Handler{h.get}},
		{Method: fiber.MethodPatch, Path: "/workspaces/:org/students/:id", Handlers: []fiber.Handler{h.update}},
		{Method: fiber.MethodDelete, Path: "/workspaces/:org/students/:id", Handlers: []fiber.Handler{h.delete}},
	}
}

type studentRoutes struct {
	app students.Application
	dec *web.Decoder
}

// create is the public create for operators: 201 new, 200 when the address exists.
func (h studentRoutes) create(c *fiber.Ctx) error {
	var req web.CreateStudentBody
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	res, err := h.app.Commands.CreateStudent.Handle(c.UserContext(), req.Command(c.Params("org")))
	if err != nil {
		return err
	}
	if res.Created {
		return created(c, res.Value)
	}
	return c.JSON(res.Value)
}

func (h studentRoutes) get(c *fiber.Ctx) error {
	s, err := h.app.Queries.GetStudent.Handle(c.UserContext(), query.GetStudent{WorkspaceID: c.Params("org"), StudentID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (h studentRoutes) update(c *fiber.Ctx) error {
	var req updateStudentRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	s, err := h.app.Commands.UpdateStudent.Handle(c.UserContext(), command.UpdateStudent{
		WorkspaceID: c.Params("org"), StudentID: c.Params("id"),
		Email: req.Email, FirstName: req.FirstName, LastName: req.LastName, Metadata: req.Metadata,
	})
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// delete answers the student as it was last shown (the data of student.deleted).
func (h studentRoutes) delete(c *fiber.Ctx) error {
	s, err := h.app.Commands.DeleteStudent.Handle(c.UserContext(), command.DeleteStudent{WorkspaceID: c.Params("org"), StudentID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(s)
}
