package v1

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// StudentEndpoints serves GET /students (filters email, externalId, updatedSince) and
// POST /students.
func StudentEndpoints(app students.Application, cursors *Cursors, dec *web.Decoder) []Endpoint {
	h := studentHandlers{app: app, cursors: cursors, dec: dec}
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/students", Scope: keys.ReadStudents, Handler: h.list},
		{Method: fiber.MethodPost, Path: "/students", Scope: keys.WriteStudents, Handler: h.create},
	}
}

type studentHandlers struct {
	app     students.Application
	cursors *Cursors
	dec     *web.Decoder
}

var studentFilterParams = []string{"email", "updatedSince", "externalId"}

func (h studentHandlers) list(c *fiber.Ctx) error {
	if err := OnlyParams(c, append([]string{"limit", "cursor"}, studentFilterParams...)...); err != nil {
		return err
	}
	filter, bound, err := studentFilter(c)
	if err != nil {
		return err
	}
	ws := PrincipalOf(c).WorkspaceID
	scope := Scope{List: "students", WorkspaceID: ws, Filters: bound}
	page, err := PageRequest(c, h.cursors, scope, studentFilterParams...)
	if err != nil {
		return err
	}
	result, err := h.app.Queries.ListStudents.Handle(c.UserContext(), query.ListStudents{WorkspaceID: ws, Filter: filter, Page: page})
	if err != nil {
		return err
	}
	return SendPage(c, h.cursors, scope, result)
}

// studentFilter reads the filters and their canonical form, which the cursor is bound to:
// a cursor of one filtered list is refused by any other.
func studentFilter(c *fiber.Ctx) (query.Filter, string, error) {
	var f query.Filter
	args := c.Context().QueryArgs()
	if args.Has("email") {
		f.Email = strings.TrimSpace(c.Query("email"))
		if f.Email == "" {
			return f, "", web.Invalid("email", "email must not be empty")
		}
	}
	var since string
	if args.Has("updatedSince") {
		// An unencoded '+' of a UTC offset arrives as a space; RFC 3339 never has one.
		raw := strings.ReplaceAll(strings.TrimSpace(c.Query("updatedSince")), " ", "+")
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			return f, "", web.Invalid("updatedSince", "updatedSince must be an RFC 3339 time such as 2026-11-21T10:00:00Z")
		}
		t = t.UTC()
		f.UpdatedSince = &t
		since = t.Format(time.RFC3339Nano)
	}
	canonical := "email=" + strings.ToLower(f.Email) + "\x00updatedSince=" + since
	if args.Has("externalId") {
		f.ExternalID = strings.TrimSpace(c.Query("externalId"))
		if f.ExternalID == "" {
			return f, "", web.Invalid("externalId", "externalId must not be empty; leave it out to not filter")
		}
		canonical += "\x00externalId=" + f.ExternalID
	}
	return f, canonical, nil
}

// create answers 201 with a new student, or 200 with the existing one of that address.
// A key that may not read students (a landing page's write-only key) gets only the
// existing student's id: the address alone must not open the record to it.
func (h studentHandlers) create(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	var req web.CreateStudentBody
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	res, err := h.app.Commands.CreateStudent.Handle(c.UserContext(), req.Command(PrincipalOf(c).WorkspaceID))
	if err != nil {
		return err
	}
	if res.Created {
		return c.Status(fiber.StatusCreated).JSON(res.Value)
	}
	if !PrincipalOf(c).Allows(keys.ReadStudents) {
		return c.JSON(studentReference{ID: res.Value.ID})
	}
	return c.JSON(res.Value)
}

// studentReference is what a key without read:students learns of an existing student.
type studentReference struct {
	ID string `json:"id"`
}
