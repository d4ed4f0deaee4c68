package query

import (
	"context"
	"time"
)

// Published is the students module's published read port, wired to other modules by the
// composition root through students.Directory (enrollments, orders and certificates ask
// whether a student exists; the analytics rebuild guard asks since when students count).
// It reads in the caller's transaction when there is one.
type Published interface {
	// Exists tells whether a live (not deleted) student of the workspace has this id.
	Exists(ctx context.Context, workspaceID, id string) (bool, error)
	// FirstCreated returns the earliest creation of a student, deleted ones included,
	// over every workspace; ok is false when there is none.
	FirstCreated(ctx context.Context) (at time.Time, ok bool, err error)
}

// StudentExists asks whether a live student of the workspace has this id.
type StudentExists struct {
	WorkspaceID string
	StudentID   string
}

// StudentExists answers false for a deleted student, one of another workspace, or an empty id.
func (r Reads) StudentExists(ctx context.Context, q StudentExists) (bool, error) {
	if q.StudentID == "" {
		return false, nil
	}
	return r.Published.Exists(ctx, q.WorkspaceID, q.StudentID)
}
