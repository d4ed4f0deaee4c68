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

// PublishCourse publishes the course.
func (d Deps) PublishCourse(ctx context.Context, cmd PublishCourse) (query.CourseDetail, error) {
	return d.courses().Step(ctx, cmd.WorkspaceID, cmd.CourseID, (*courses.Course).Publish, events.CoursePublishedV1)
}

// ArchiveCourse withdraws a course from the list (emits course.archived).
type ArchiveCourse struct {
	WorkspaceID string
	CourseID    string
}

// ArchiveCourse archives the course.
func (d Deps) ArchiveCourse(ctx context.Context, cmd ArchiveCourse) (query.CourseDetail, error) {
	return d.courses().Step(ctx, cmd.WorkspaceID, cmd.CourseID, (*courses.Course).Archive, events.CourseArchivedV1)
}
