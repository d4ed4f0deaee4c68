package query

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// FromDomain shows c with its curriculum: what course.published and course.archived
// carry, built from the aggregate the use case just changed.
func FromDomain(c *courses.Course) CourseDetail {
	out := CourseDetail{
		Course: Course{
			ID: c.ID, Livemode: kernel.Livemode(c.WorkspaceID), Slug: c.Slug, Title: c.Title, Description: c.Description, Status: string(c.Status),
			PublishedAt: platform.UTCPtr(c.PublishedAt), ArchivedAt: platform.UTCPtr(c.ArchivedAt),
			CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
			ModuleCount: len(c.Modules), LessonCount: c.LessonCount(),
		},
		Modules: make([]Module, len(c.Modules)),
	}
	for i, m := range c.Modules {
		out.Modules[i] = Module{ID: m.ID, Title: m.Title, Position: m.Position, Lessons: make([]Lesson, len(m.Lessons))}
		for j, l := range m.Lessons {
			out.Modules[i].Lessons[j] = Lesson{ID: l.ID, Title: l.Title, Position: l.Position, Type: string(l.Type), DurationSeconds: l.DurationSeconds}
		}
	}
	return out
}
