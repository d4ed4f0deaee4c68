package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// RecordProgress marks a lesson completed by a student, under the student's enrollment
// in the lesson's course.
type RecordProgress struct {
	WorkspaceID string
	StudentID   string
	LessonID    string
}

// RecordProgress is idempotent per lesson: recorded is false when the lesson was already
// completed (nothing changes). A new completion emits the internal lesson.completed;
// completing the last lesson of the course completes an active enrollment and emits
// the internal enrollment.completed. Neither is a webhook type.
func (d Deps) RecordProgress(ctx context.Context, cmd RecordProgress) (out platform.Upsert[query.LessonProgress], err error) {
	if cmd.LessonID == "" {
		return out, kernel.Invalid("lessonId", "lessonId is required")
	}
	courseID, err := d.Catalog.LessonCourse(ctx, cmd.WorkspaceID, cmd.LessonID)
	if kernel.IsNotFound(err) {
		return out, kernel.Invalid("lessonId", "lessonId: lesson %s not found in this workspace", cmd.LessonID)
	}
	if err != nil {
		return out, err
	}
	if err := d.requireStudent(ctx, cmd.WorkspaceID, cmd.StudentID); err != nil {
		return out, err
	}
	// Locking the enrollment serializes concurrent completions of its lessons, so
	// exactly one of them sees the last lesson done.
	e, err := d.Repo.GetByPair(ctx, cmd.WorkspaceID, cmd.StudentID, courseID)
	if kernel.IsNotFound(err) {
		return out, kernel.Invalid("studentId", "studentId: student %s is not enrolled in course %s of lesson %s", cmd.StudentID, courseID, cmd.LessonID)
	}
	if err != nil {
		return out, err
	}
	if err := e.CanProgress(); err != nil {
		return out, err
	}
	course, err := d.Catalog.Course(ctx, cmd.WorkspaceID, courseID)
	if err != nil {
		return out, err
	}
	now := d.Clock.Now()
	completion := enrollments.LessonCompletion{
		WorkspaceID: cmd.WorkspaceID, EnrollmentID: e.ID, StudentID: cmd.StudentID, CourseID: courseID,
		LessonID: cmd.LessonID, CompletedAt: now,
	}
	if out.Created, err = d.Progress.Add(ctx, completion); err != nil {
		return out, err
	}
	if !out.Created {
		if completion, err = d.Progress.Get(ctx, cmd.WorkspaceID, e.ID, cmd.LessonID); err != nil {
			return out, err
		}
	}
	done, err := d.Progress.Count(ctx, cmd.WorkspaceID, e.ID)
	if err != nil {
		return out, err
	}
	var evs []events.Event
	if out.Created {
		completedNow := e.RecordLesson(done, course.LessonCount, now)
		if err := d.Repo.Update(ctx, e); err != nil {
			return out, err
		}
		if err := d.Students.Touch(ctx, cmd.WorkspaceID, cmd.StudentID, now); err != nil {
			return out, err
		}
		if completedNow {
			evs = append(evs, events.EnrollmentCompletedV1.New(cmd.WorkspaceID, query.FromDomain(e)))
		}
	}
	out.Value = query.LessonProgress{
		StudentID: cmd.StudentID, CourseID: courseID, LessonID: cmd.LessonID, EnrollmentID: e.ID,
		CompletedAt: completion.CompletedAt.UTC(), Progress: query.NewProgress(done, course.LessonCount),
		Enrollment: query.FromDomain(e),
	}
	if out.Created {
		evs = append([]events.Event{events.LessonCompletedV1.New(cmd.WorkspaceID, out.Value)}, evs...)
	}
	return out, d.Publisher.Publish(ctx, evs...)
}
