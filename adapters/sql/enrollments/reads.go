package enrollments

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Reads answers the module's own read model (query.ReadModel) and its published
// queries (query.Published), read in the caller's transaction when there is one.
type Reads struct {
	sqldb.Prepared[readsStatements]
}

type readsStatements struct{ Find, Pair string }

// factsColumns are an enrollment's facts with its count of completed lessons.
const factsColumns = `e.id, e.student_id, e.course_id, e.status, e.created_at, e.revoked_at, e.completed_at,
	(SELECT COUNT(*) FROM lesson_progress p WHERE p.workspace_id = e.workspace_id AND p.enrollment_id = e.id) AS completed_lessons`

// NewReads prepares the statements for db's dialect.
func NewReads(db *sqldb.DB) *Reads {
	return &Reads{sqldb.Prepare(db, readsStatements{
		Find: `SELECT ` + enrollmentColumns + ` FROM enrollments WHERE workspace_id = ? AND id = ?`,
		Pair: `SELECT ` + factsColumns + ` FROM enrollments e WHERE e.workspace_id = ? AND e.student_id = ? AND e.course_id = ?`,
	})}
}

// Find reads the enrollment as the API shows it, or NotFound.
func (r *Reads) Find(ctx context.Context, workspaceID, id string) (query.Enrollment, error) {
	e, err := one(ctx, r.DB.Read(ctx), r.Q.Find, "enrollment "+id, workspaceID, id)
	if err != nil {
		return query.Enrollment{}, err
	}
	return query.FromDomain(e), nil
}

// OfStudents loads the enrollments of the students in one query, by student.
func (r *Reads) OfStudents(ctx context.Context, workspaceID string, studentIDs []string) (map[string][]query.Facts, error) {
	out := map[string][]query.Facts{}
	if len(studentIDs) == 0 {
		return out, nil
	}
	// IN (...) has as many placeholders as ids: expanded per call, then rebound.
	stmt, args, err := sqlx.In(`SELECT `+factsColumns+` FROM enrollments e
		WHERE e.workspace_id = ? AND e.student_id IN (?) ORDER BY e.created_at, e.id`, workspaceID, studentIDs)
	if err != nil {
		return nil, fmt.Errorf("expand student ids: %w", err)
	}
	rows, err := sqldb.All[query.Facts](ctx, r.DB.Read(ctx), r.DB.Rebind(stmt), args...)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		out[row.StudentID] = append(out[row.StudentID], row)
	}
	return out, nil
}

// OfPair returns the student's enrollment in the course, or NotFound.
func (r *Reads) OfPair(ctx context.Context, workspaceID, studentID, courseID string) (query.Facts, error) {
	var f query.Facts
	err := sqldb.One(ctx, r.DB.Read(ctx), &f, kernel.NotFound("no enrollment of student %s in course %s", studentID, courseID),
		r.Q.Pair, workspaceID, studentID, courseID)
	return f, err
}

// FirstActivity returns the earliest enrollment or lesson completion, any workspace.
func (r *Reads) FirstActivity(ctx context.Context) (time.Time, bool, error) {
	return r.DB.Earliest(ctx,
		`SELECT created_at FROM enrollments ORDER BY created_at LIMIT 1`,
		`SELECT completed_at FROM lesson_progress ORDER BY completed_at LIMIT 1`)
}
