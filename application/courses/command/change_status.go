package command

import (
	"context"
	"fmt"
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
	return h.deps.transition(ctx, cmd.WorkspaceID, cmd.CourseID, events.CoursePublished, (*courses.Course).Publish)
}

// Handle archives the course.
func (h ArchiveCourseHandler) Handle(ctx context.Context, cmd ArchiveCourse) (query.CourseDetail, error) {
	return h.deps.transition(ctx, cmd.WorkspaceID, cmd.CourseID, events.CourseArchived, (*courses.Course).Archive)
}

// transition applies a life-cycle step and publishes its event, with the course as the
// API shows it, in the same transaction.
func (d Deps) transition(ctx context.Context, workspaceID, courseID string, t events.Type,
	step func(*courses.Course, time.Time) (courses.Event, error)) (query.CourseDetail, error) {
	var out query.CourseDetail
	err := d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		c, err := d.Repo.Get(ctx, workspaceID, courseID)
		if err != nil {
			return err
		}
		if _, err := step(c, d.Clock.Now()); err != nil {
			return err
		}
		if err := d.Repo.Update(ctx, c); err != nil {
			return err
		}
		if out, err = d.ReadModel.Get(ctx, workspaceID, courseID); err != nil {
			return err
		}
		return d.Publisher.Publish(ctx, events.New(t, workspaceID, out))
	})
	if err != nil {
		return query.CourseDetail{}, fmt.Errorf("%s: %w", t, err)
	}
	return out, nil
}
