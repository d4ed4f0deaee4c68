// Package courses holds a course and its curriculum: ordered modules of ordered lessons,
// and the draft -> published -> archived life cycle.
package courses

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// ID prefixes.
const (
	IDPrefix       = "crs"
	ModuleIDPrefix = "mod"
	LessonIDPrefix = "les"
)

// Status is a course's place in its life cycle.
type Status string

// Course states: only published courses are listed; published and archived ones resolve by id.
const (
	Draft     Status = "draft"
	Published Status = "published"
	Archived  Status = "archived"
)

// Course is the aggregate: the curriculum changes only through it.
type Course struct {
	ID          string
	WorkspaceID string
	Slug        string
	Title       string
	Description string
	Status      Status
	PublishedAt *time.Time
	ArchivedAt  *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Modules     []Module
}

// Module is an ordered section of a course.
type Module struct {
	ID        string
	Title     string
	Position  int
	CreatedAt time.Time
	Lessons   []Lesson
}

// New builds a draft course; the slug must already be valid and unique (see NormalizeSlug).
func New(id, workspaceID, title, slug, description string, now time.Time) (*Course, error) {
	title, err := kernel.RequireText("title", title, 200)
	if err != nil {
		return nil, err
	}
	if err := kernel.MaxLength("description", description, 5000); err != nil {
		return nil, err
	}
	if err := ValidateSlug(slug); err != nil {
		return nil, err
	}
	return &Course{
		ID: id, WorkspaceID: workspaceID, Slug: slug, Title: title, Description: description,
		Status: Draft, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// Publish makes a draft (or archived) course visible to integrators and students.
// Domain methods record no events: the use case publishes the event contract built from
// the changed aggregate (application/events), the same way in every module.
func (c *Course) Publish(now time.Time) error {
	if c.Status == Published {
		return kernel.Invalid("status", "course %s is already published", c.ID)
	}
	c.Status = Published
	c.PublishedAt = &now
	c.ArchivedAt = nil
	c.UpdatedAt = now
	return nil
}

// Archive withdraws a published course from the list; it still resolves by id.
func (c *Course) Archive(now time.Time) error {
	if c.Status != Published {
		return kernel.Invalid("status", "only a published course can be archived; course %s is %s", c.ID, c.Status)
	}
	c.Status = Archived
	c.ArchivedAt = &now
	c.UpdatedAt = now
	return nil
}

// Visible tells whether integrators may fetch the course by id.
func (c *Course) Visible() bool { return c.Status == Published || c.Status == Archived }

// AddModule appends a module at the next position.
func (c *Course) AddModule(id, title string, now time.Time) (Module, error) {
	if c.Status == Archived {
		return Module{}, kernel.Invalid("courseId", "course %s is archived and cannot change", c.ID)
	}
	title, err := kernel.RequireText("title", title, 200)
	if err != nil {
		return Module{}, err
	}
	if len(c.Modules) >= 500 {
		return Module{}, kernel.Invalid("courseId", "a course has at most 500 modules")
	}
	m := Module{ID: id, Title: title, Position: len(c.Modules) + 1, CreatedAt: now}
	c.Modules = append(c.Modules, m)
	c.UpdatedAt = now
	return m, nil
}

// AddLesson appends a lesson to the module at the next position.
func (c *Course) AddLesson(moduleID string, l LessonDraft, now time.Time) (Lesson, error) {
	if c.Status == Archived {
		return Lesson{}, kernel.Invalid("moduleId", "course %s is archived and cannot change", c.ID)
	}
	for i := range c.Modules {
		m := &c.Modules[i]
		if m.ID != moduleID {
			continue
		}
		if len(m.Lessons) >= 1000 {
			return Lesson{}, kernel.Invalid("moduleId", "a module has at most 1000 lessons")
		}
		lesson, err := l.build(len(m.Lessons)+1, now)
		if err != nil {
			return Lesson{}, err
		}
		m.Lessons = append(m.Lessons, lesson)
		c.UpdatedAt = now
		return lesson, nil
	}
	return Lesson{}, kernel.NotFound("module %s not found", moduleID)
}

// LessonCount counts lessons across modules.
func (c *Course) LessonCount() int {
	n := 0
	for _, m := range c.Modules {
		n += len(m.Lessons)
	}
	return n
}

// Repository stores course aggregates. Get and GetByModule return NotFound outside the workspace.
type Repository interface {
	Add(ctx context.Context, c *Course) error
	Get(ctx context.Context, workspaceID, id string) (*Course, error)
	GetByModule(ctx context.Context, workspaceID, moduleID string) (*Course, error)
	SlugTaken(ctx context.Context, workspaceID, slug string) (bool, error)
	// Update saves the course row and appends modules and lessons it does not hold yet.
	Update(ctx context.Context, c *Course) error
}
