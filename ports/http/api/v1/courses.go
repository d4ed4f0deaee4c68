package v1

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// CourseEndpoints serves GET /courses (all published courses, or the one with ?slug=)
// and GET /courses/{id}.
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
	slug, err := courseSlug(c)
	if err != nil {
		return err
	}
	// The cursor is bound to the slug filter like the students' filters (a slug's list
	// has one page, so no cursor is ever issued for it).
	scope := Scope{List: "courses", WorkspaceID: ws}
	if slug != "" {
		scope.Filters = "slug=" + slug
	}
	page, err := PageRequest(c, h.cursors, scope, "slug")
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
		return h.app.Queries.ListPublished.Handle(c.UserContext(), query.ListPublishedCourses{WorkspaceID: ws, Slug: slug, Page: page})
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

// courseSlug reads the optional slug filter; present but empty is invalid.
func courseSlug(c *fiber.Ctx) (string, error) {
	if !c.Context().QueryArgs().Has("slug") {
		return "", nil
	}
	slug := strings.TrimSpace(c.Query("slug"))
	if slug == "" {
		return "", web.Invalid("slug", "slug must not be empty; leave it out to list every published course")
	}
	return slug, nil
}
