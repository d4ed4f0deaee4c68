package students

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// Reads answers the module's read model (query.ReadModel: profiles; the enrollments a
// page embeds are the application's to add) and its published queries (query.Published),
// read in the caller's transaction when there is one.
type Reads struct {
	db                   *sqldb.DB
	pages                map[listShape]string
	get, byEmail, exists string
}

// listShape says which optional conditions a list statement carries.
type listShape struct{ email, externalID, since, after bool }

// NewReads prepares the statements for db's dialect.
func NewReads(db *sqldb.DB) *Reads {
	live := `SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND deleted_at IS NULL`
	r := &Reads{
		db:      db,
		pages:   map[listShape]string{},
		get:     db.Rebind(live + ` AND id = ?`),
		byEmail: db.Rebind(live + ` AND email_lower = ?`),
		exists:  db.Rebind(`SELECT 1 FROM students WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL`),
	}
	// One statement per combination of filters, all prepared once.
	for shape := range 16 {
		s := listShape{email: shape&1 != 0, externalID: shape&2 != 0, since: shape&4 != 0, after: shape&8 != 0}
		q := live
		if s.email {
			q += ` AND email_lower = ?`
		}
		if s.externalID {
			q += ` AND external_id = ?` // students_by_external_id (migration 00022)
		}
		if s.since {
			q += ` AND updated_at >= ?`
		}
		if s.after {
			q += ` AND (created_at < ? OR (created_at = ? AND id < ?))`
		}
		r.pages[s] = db.Rebind(q + ` ORDER BY created_at DESC, id DESC LIMIT ?`)
	}
	return r
}

// List returns one keyset page of live students, newest first.
func (r *Reads) List(ctx context.Context, workspaceID string, f query.Filter, page platform.PageRequest) (platform.Page[*students.Student], error) {
	shape := listShape{email: f.Email != "", externalID: f.ExternalID != "", since: f.UpdatedSince != nil, after: page.After != nil}
	args := []any{workspaceID}
	if shape.email {
		args = append(args, students.EmailKey(f.Email))
	}
	if shape.externalID {
		args = append(args, f.ExternalID)
	}
	if shape.since {
		args = append(args, f.UpdatedSince.UTC())
	}
	if shape.after {
		args = append(args, page.After.CreatedAt, page.After.CreatedAt, page.After.ID)
	}
	rows, err := sqldb.All[studentRow](ctx, r.db.Read(ctx), r.pages[shape], append(args, page.Fetch())...)
	if err != nil {
		return platform.Page[*students.Student]{}, err
	}
	cut := platform.CutPage(rows, page, func(row studentRow) platform.Position {
		return platform.Position{CreatedAt: row.CreatedAt, ID: row.ID}
	})
	return platform.MapPage(cut, func(rows []studentRow) ([]*students.Student, error) {
		out := make([]*students.Student, len(rows))
		for i, row := range rows {
			s, err := row.student()
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	})
}

// Get returns a live student or NotFound.
func (r *Reads) Get(ctx context.Context, workspaceID, id string) (*students.Student, error) {
	return one(ctx, r.db.Read(ctx), r.get, "student "+id, workspaceID, id)
}

// GetByEmail returns the live student with this address (case-insensitively) or NotFound.
func (r *Reads) GetByEmail(ctx context.Context, workspaceID, email string) (*students.Student, error) {
	return one(ctx, r.db.Read(ctx), r.byEmail, "student with this email", workspaceID, students.EmailKey(email))
}

// Exists tells whether a live student of the workspace has this id.
func (r *Reads) Exists(ctx context.Context, workspaceID, id string) (bool, error) {
	return sqldb.Exists(ctx, r.db.Read(ctx), r.exists, workspaceID, id)
}

// FirstCreated returns the earliest creation of a student, any workspace.
func (r *Reads) FirstCreated(ctx context.Context) (time.Time, bool, error) {
	return r.db.Earliest(ctx, `SELECT created_at FROM students ORDER BY created_at LIMIT 1`)
}

// The two ports, checked at compile time.
var (
	_ query.ReadModel     = (*Reads)(nil)
	_ query.Published     = (*Reads)(nil)
	_ students.Repository = (*Repository)(nil)
)
