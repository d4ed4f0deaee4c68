package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// CourseEndpoints serves GET /courses and GET /courses/{id}.
func CourseEndpoints(app courses.Application, cursors *Cursors, cache *PageCache) []Endpoint {
	h := courseHandlers{app: app, cursors: cursors, cache: cache}
	return []Endpoint{
		{Method: fiber.MethodGet, Path: "/courses", Scope: keys.ReadCourses, Handler: h.list},
		{Method: fiber.MethodGet, Path: "/courses/:id", Scope: keys.ReadCourses, Handler: h.get},
	}
}

type courseHandlers struct {
	app     courses.Application
	cursors *Cursors
	cache   *PageCache
}

func (h courseHandlers) list(c *fiber.Ctx) error {
	ws := PrincipalOf(c).WorkspaceID
	scope := Scope{List: "courses", WorkspaceID: ws}
	page, err := PageRequest(c, h.cursors, scope)
	if err != nil {
		return err
	}
	// The catalogue is read far more often than it changes: serve pages encoded once,
	// for as long as the workspace's catalogue version stays the same.
	version, err := h.app.Queries.CatalogVersion.Handle(c.UserContext(), ws)
	if err != nil {
		return err
	}
	return ServeCachedPage(c, h.cache, h.cursors, scope, version, page, func() (platform.Page[query.Course], error) {
		return h.app.Queries.ListPublished.Handle(c.UserContext(), query.ListPublishedCourses{WorkspaceID: ws, Page: page})
	})
}

func (h courseHandlers) get(c *fiber.Ctx) error {
	if err := OnlyParams(c); err != nil {
		return err
	}
	course, err := h.app.Queries.GetCourse.Handle(c.UserContext(), query.GetCourse{
		WorkspaceID: PrincipalOf(c).WorkspaceID, CourseID: c.Params("id"),
	})
	if err != nil {
		return err
	}
	return c.JSON(course)
}
