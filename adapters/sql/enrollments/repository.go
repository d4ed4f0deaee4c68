package enrollments

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/enrollments"
)

// Repository stores enrollment aggregates (enrollments.Repository).
type Repository struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, Get, GetByPair, Update string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{sqldb.Prepare(db, statements{
		// The unique (workspace_id, student_id, course_id) constraint makes concurrent
		// identical grants insert one row; the others affect none.
		Insert: `INSERT INTO enrollments (` + enrollmentColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (workspace_id, student_id, course_id) DO NOTHING`,
		Get:       `SELECT ` + enrollmentColumns + ` FROM enrollments WHERE workspace_id = ? AND id = ?` + db.ForUpdate(),
		GetByPair: `SELECT ` + enrollmentColumns + ` FROM enrollments WHERE workspace_id = ? AND student_id = ? AND course_id = ?` + db.ForUpdate(),
		Update: `UPDATE enrollments SET status = ?, updated_at = ?, revoked_at = ?, completed_at = ?
			WHERE workspace_id = ? AND id = ?`,
	})}
}

// Add inserts e unless the pair is enrolled already; added tells which.
func (r *Repository) Add(ctx context.Context, e *enrollments.Enrollment) (bool, error) {
	return r.DB.Changes(ctx, "insert enrollment", r.Q.Insert, e.ID, e.WorkspaceID, e.StudentID, e.CourseID, string(e.Status),
		string(e.Source), e.CreatedAt, e.UpdatedAt, e.RevokedAt, e.CompletedAt)
}

// Get loads the enrollment locked for the caller's transaction, or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*enrollments.Enrollment, error) {
	return one(ctx, r.DB.Write(ctx), r.Q.Get, "enrollment "+id, workspaceID, id)
}

// GetByPair loads the enrollment of student in course, locked, or NotFound.
func (r *Repository) GetByPair(ctx context.Context, workspaceID, studentID, courseID string) (*enrollments.Enrollment, error) {
	return one(ctx, r.DB.Write(ctx), r.Q.GetByPair, "enrollment", workspaceID, studentID, courseID)
}

// Update saves the state of e.
func (r *Repository) Update(ctx context.Context, e *enrollments.Enrollment) error {
	return r.DB.Exec(ctx, "update enrollment", r.Q.Update, string(e.Status), e.UpdatedAt, e.RevokedAt, e.CompletedAt, e.WorkspaceID, e.ID)
}
