package modulelinks

import (
	"context"
	"time"

	certificatecmd "github.com/creatorapi/creatorapi/application/certificates/command"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	ordercmd "github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/application/students/query"
)

// The students module's published surface (students.Directory), adapted to the small
// port each consumer declares in its own application package. Nobody else names the
// students table.

// StudentDirectory answers the StudentDirectory ports of enrollments, orders and
// certificates (all ask Exists; enrollments also Touch).
type StudentDirectory struct{ Dir students.Directory }

// Exists tells whether a live student of the workspace has this id.
func (d StudentDirectory) Exists(ctx context.Context, workspaceID, studentID string) (bool, error) {
	return d.Dir.StudentExists.Handle(ctx, query.StudentExists{WorkspaceID: workspaceID, StudentID: studentID})
}

// Touch moves the student's updatedAt forward to at: its enrollments changed.
func (d StudentDirectory) Touch(ctx context.Context, workspaceID, studentID string, at time.Time) error {
	_, err := d.Dir.TouchStudent.Handle(ctx, command.TouchStudent{WorkspaceID: workspaceID, StudentID: studentID, At: at})
	return err
}

// The adapter satisfies the consumers' ports.
var (
	_ enrollmentcmd.StudentDirectory  = StudentDirectory{}
	_ ordercmd.StudentDirectory       = StudentDirectory{}
	_ certificatecmd.StudentDirectory = StudentDirectory{}
)
