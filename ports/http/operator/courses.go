package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type createCourseRequest struct {
	Title       string `json:"title" validate:"required,max=200"`
	Slug        string `json:"slug" validate:"max=80"`
	Description string `json:"description" validate:"max=5000" text:"multiline"`
}

type addModuleRequest struct {
	Title string `json:"title" validate:"required,max=200"`
}

type addLessonRequest struct {
	Title           string `json:"title" validate:"required,max=200"`
	Type            string `json:"type" validate:"required,oneof=video text quiz live download"`
	DurationSeconds *int   `json:"durationSeconds" validate:"required,gte=0,lte=86400"`
}

// CourseRoutes: courses, modules, lessons, publish and archive.
func CourseRoutes(app courses.Application, dec *web.Decoder) Routes {
	h := courseRoutes{app: app, dec: dec}
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/courses", Handlers: []fiber.Handler{h.create}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/courses/:id", Handlers: []fiber.Handler{h.get}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/courses/:id/modules", Handlers: []fiber.Handler{h.addModule}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/modules/:id/lessons", Handlers: []fiber.Handler{h.addLesson}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/courses/:id/publish", Handlers: []fiber.Handler{h.publish}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/courses/:id/archive", Handlers: []fiber.Handler{h.archive}},
	}
}

type courseRoutes struct {
	app courses.Application
	dec *web.Decoder
}

func (h courseRoutes) create(c *fiber.Ctx) error {
	var req createCourseRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	course, err := h.app.Commands.CreateCourse.Handle(c.UserContext(), command.CreateCourse{
		WorkspaceID: c.Params("org"), Title: req.Title, Slug: req.Slug, Description: req.Description,
	})
	if err != nil {
		return err
	}
	return created(c, course)
}

func (h courseRoutes) get(c *fiber.Ctx) error {
	course, err := h.app.Queries.GetCourse.Handle(c.UserContext(), query.GetCourse{
		WorkspaceID: c.Params("org"), CourseID: c.Params("id"), IncludeDrafts: true,
	})
	if err != nil {
		return err
	}
	return c.JSON(course)
}

func (h courseRoutes) addModule(c *fiber.Ctx) error {
	var req addModuleRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	m, err := h.app.Commands.AddModule.Handle(c.UserContext(), command.AddModule{
		WorkspaceID: c.Params("org"), CourseID: c.Params("id"), Title: req.Title,
	})
	if err != nil {
		return err
	}
	return created(c, m)
}

func (h courseRoutes) addLesson(c *fiber.Ctx) error {
	var req addLessonRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	l, err := h.app.Commands.AddLesson.Handle(c.UserContext(), command.AddLesson{
		WorkspaceID: c.Params("org"), ModuleID: c.Params("id"), Title: req.Title, Type: req.Type, DurationSeconds: *req.DurationSeconds,
	})
	if err != nil {
		return err
	}
	return created(c, l)
}

func (h courseRoutes) publish(c *fiber.Ctx) error {
	course, err := h.app.Commands.PublishCourse.Handle(c.UserContext(), command.PublishCourse{WorkspaceID: c.Params("org"), CourseID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(course)
}

func (h courseRoutes) archive(c *fiber.Ctx) error {
	course, err := h.app.Commands.ArchiveCourse.Handle(c.UserContext(), command.ArchiveCourse{WorkspaceID: c.Params("org"), CourseID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(course)
}
