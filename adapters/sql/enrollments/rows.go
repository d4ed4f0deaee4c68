package enrollments

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The enrollments table's columns, shared by the repository and the reads; a row
// scans straight into enrollments.Enrollment.
const enrollmentColumns = `id, workspace_id, student_id, course_id, status, source, created_at, updated_at, revoked_at, completed_at`

// one reads the enrollment stmt selects with args, or NotFound naming what.
func one(ctx context.Context, q sqldb.Querier, stmt, what string, args ...any) (*enrollments.Enrollment, error) {
	var e enrollments.Enrollment
	if err := sqldb.One(ctx, q, &e, kernel.NotFound("%s not found", what), stmt, args...); err != nil {
		return nil, err
	}
	return &e, nil
}
