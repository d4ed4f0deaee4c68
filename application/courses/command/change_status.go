package command

import (
	"context"
	"time"

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
	return h.deps.transition(ctx, cmd.WorkspaceID, cmd.CourseID, events.CoursePublishedV1, (*courses.Course).Publish)
}

// Handle archives the course.
func (h ArchiveCourseHandler) Handle(ctx context.Context, cmd ArchiveCourse) (query.CourseDetail, error) {
	return h.deps.transition(ctx, cmd.WorkspaceID, cmd.CourseID, events.CourseArchivedV1, (*courses.Course).Archive)
}

// transition applies a life-cycle step and publishes its event, built from the course it
// changed, in the command's transaction.
func (d Deps) transition(ctx context.Context, workspaceID, courseID string, t events.Contract[events.CourseDetail],
	step func(*courses.Course, time.Time) error) (query.CourseDetail, error) {
	c, err := d.Repo.Get(ctx, workspaceID, courseID)
	if err != nil {
		return query.CourseDetail{}, err
	}
	if err := step(c, d.Clock.Now()); err != nil {
		return query.CourseDetail{}, err
	}
	if err := d.Repo.Update(ctx, c); err != nil {
		return query.CourseDetail{}, err
	}
	out := query.FromDomain(c)
	return out, d.Publisher.Publish(ctx, t.New(workspaceID, out))
}
