package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// DeleteStudent removes a student from the workspace's lists and lookups.
type DeleteStudent struct {
	WorkspaceID string
	StudentID   string
}

// DeleteStudent deletes the student and emits student.deleted with the student as it was last
// shown. The row stays (soft delete) so that orders and enrollments keep their history;
// the address becomes free for a new student.
func (d Deps) DeleteStudent(ctx context.Context, cmd DeleteStudent) (out query.Student, err error) {
	_, err = platform.Change(ctx, d.Repo, cmd.WorkspaceID, cmd.StudentID, func(s *students.Student) error {
		// The student as last shown: before the deletion.
		if out, err = d.History.ShowOne(ctx, cmd.WorkspaceID, s); err != nil {
			return err
		}
		return s.Delete(d.Clock.Now())
	})
	if err != nil {
		return out, err
	}
	return out, d.Publisher.Publish(ctx, events.StudentDeletedV1.New(cmd.WorkspaceID, out))
}
