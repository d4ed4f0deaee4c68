package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// PublishCourse makes a course visible (emits course.published).
type PublishCourse struct {
	WorkspaceID string
	CourseID    string
}

// ArchiveCourse withdraws a course from the list (emits course.archived).
type ArchiveCourse struct {
	WorkspaceID string
	CourseID    string
}

// PublishCourseHandler handles PublishCourse.
type PublishCourseHandler struct{ deps Deps }

// ArchiveCourseHandler handles ArchiveCourse.
type ArchiveCourseHandler struct{ deps Deps }

// NewPublishCourseHandler builds the handler.
func NewPublishCourseHandler(d Deps) PublishCourseHandler { return PublishCourseHandler{deps: d} }

// NewArchiveCourseHandler builds the handler.
func NewArchiveCourseHandler(d Deps) ArchiveCourseHandler { return ArchiveCourseHandler{deps: d} }

// Handle publishes the course.
func (h PublishCourseHandler) Handle(ctx context.Context, cmd PublishCourse) (query.CourseDetail, error) {
	return h.deps.courses().Step(ctx, cmd.WorkspaceID, cmd.CourseID, (*courses.Course).Publish, events.CoursePublishedV1)
}

// Handle archives the course.
func (h ArchiveCourseHandler) Handle(ctx context.Context, cmd ArchiveCourse) (query.CourseDetail, error) {
	return h.deps.courses().Step(ctx, cmd.WorkspaceID, cmd.CourseID, (*courses.Course).Archive, events.CourseArchivedV1)
}
