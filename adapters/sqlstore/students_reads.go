package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// StudentReads answers student queries: a page of students, then their enrollments with
// progress counts from the enrollments module in one call (never one per student), then
// the lesson counts of their courses from the courses module in one call.
type StudentReads struct {
	db           *sqldb.DB
	lessons      query.CourseLessons
	history      query.EnrollmentHistory
	pages        map[listShape]string
	get, byEmail string
}

// listShape says which optional conditions a list statement carries.
type listShape struct{ email, since, after bool }

// NewStudentReads prepares the statements for db's dialect; lessons is the courses
// module's answer to "how many lessons has this course", history the enrollments
// module's answer to "where do these students stand".
func NewStudentReads(db *sqldb.DB, lessons query.CourseLessons, history query.EnrollmentHistory) *StudentReads {
	r := &StudentReads{
		db:      db,
		lessons: lessons,
		history: history,
		pages:   map[listShape]string{},
		get:     db.Rebind(`SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL`),
		byEmail: db.Rebind(`SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND email_lower = ? AND deleted_at IS NULL`),
	}
	// One statement per combination of filters, all prepared once.
	for _, email := range []bool{false, true} {
		for _, since := range []bool{false, true} {
			for _, after := range []bool{false, true} {
				q := `SELECT ` + studentColumns + ` FROM students WHERE workspace_id = ? AND deleted_at IS NULL`
				if email {
					q += ` AND email_lower = ?`
				}
				if since {
					q += ` AND updated_at >= ?`
				}
				if after {
					q += ` AND (created_at < ? OR (created_at = ? AND id < ?))`
				}
				r.pages[listShape{email, since, after}] = db.Rebind(q + ` ORDER BY created_at DESC, id DESC LIMIT ?`)
			}
		}
	}
	return r
}

// List returns one keyset page of live students, newest first.
func (r *StudentReads) List(ctx context.Context, workspaceID string, f query.Filter, page platform.PageRequest) (platform.Page[query.Student], error) {
	shape := listShape{email: f.Email != "", since: f.UpdatedSince != nil, after: page.After != nil}
	args := []any{workspaceID}
	if shape.email {
		args = append(args, students.EmailKey(f.Email))
	}
	if shape.since {
		args = append(args, f.UpdatedSince.UTC())
	}
	if shape.after {
		args = append(args, page.After.CreatedAt, page.After.CreatedAt, page.After.ID)
	}
	args = append(args, page.Limit+1)
	var rows []studentRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.pages[shape], args...); err != nil {
		return platform.Page[query.Student]{}, fmt.Errorf("list students: %w", err)
	}
	out := platform.Page[query.Student]{}
	if len(rows) > page.Limit {
		out.HasMore = true
		last := rows[page.Limit-1]
		out.Next = &platform.Position{CreatedAt: last.CreatedAt.UTC(), ID: last.ID}
		rows = rows[:page.Limit]
	}
	items, err := r.views(ctx, workspaceID, rows)
	if err != nil {
		return platform.Page[query.Student]{}, err
	}
	out.Items = items
	return out, nil
}

// Get returns a live student or NotFound.
func (r *StudentReads) Get(ctx context.Context, workspaceID, id string) (query.Student, error) {
	return r.one(ctx, workspaceID, r.get, "student "+id, id)
}

// GetByEmail returns the live student with this address (case-insensitively) or NotFound.
func (r *StudentReads) GetByEmail(ctx context.Context, workspaceID, email string) (query.Student, error) {
	return r.one(ctx, workspaceID, r.byEmail, "student with this email", students.EmailKey(email))
}

func (r *StudentReads) one(ctx context.Context, workspaceID, stmt, what string, arg any) (query.Student, error) {
	var row studentRow
	err := r.db.Read(ctx).GetContext(ctx, &row, stmt, workspaceID, arg)
	if errors.Is(err, sql.ErrNoRows) {
		return query.Student{}, kernel.NotFound("%s not found", what)
	}
	if err != nil {
		return query.Student{}, fmt.Errorf("get student: %w", err)
	}
	views, err := r.views(ctx, workspaceID, []studentRow{row})
	if err != nil {
		return query.Student{}, err
	}
	return views[0], nil
}

// views turns rows into students with their enrollments, loaded in one query.
func (r *StudentReads) views(ctx context.Context, workspaceID string, rows []studentRow) ([]query.Student, error) {
	out := make([]query.Student, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	index := make(map[string]int, len(rows))
	for i, row := range rows {
		meta, err := row.metadata()
		if err != nil {
			return nil, err
		}
		out[i] = query.Student{
			ID: row.ID, Email: row.Email, FirstName: row.FirstName, LastName: row.LastName, ExternalID: row.ExternalID,
			Metadata: meta, CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(), Enrollments: []query.Enrollment{},
		}
		ids[i] = row.ID
		index[row.ID] = i
	}
	history, err := r.enrollmentsOf(ctx, workspaceID, ids)
	if err != nil {
		return nil, err
	}
	for id, ens := range history {
		out[index[id]].Enrollments = ens
	}
	return out, nil
}

// EnrollmentHistory returns the enrollments of one student with progress, oldest first.
func (r *StudentReads) EnrollmentHistory(ctx context.Context, workspaceID, studentID string) ([]query.Enrollment, error) {
	history, err := r.enrollmentsOf(ctx, workspaceID, []string{studentID})
	if err != nil {
		return nil, err
	}
	if history[studentID] == nil {
		return []query.Enrollment{}, nil
	}
	return history[studentID], nil
}

// enrollmentsOf loads the enrollments of the students ids in one query, by student.
func (r *StudentReads) enrollmentsOf(ctx context.Context, workspaceID string, ids []string) (map[string][]query.Enrollment, error) {
	byStudent, err := r.history.EnrolledCourses(ctx, workspaceID, ids)
	if err != nil {
		return nil, fmt.Errorf("enrollments of students: %w", err)
	}
	out := map[string][]query.Enrollment{}
	if len(byStudent) == 0 {
		return out, nil
	}
	var courseIDs []string
	seen := map[string]bool{}
	for _, ens := range byStudent {
		for _, e := range ens {
			if !seen[e.CourseID] {
				seen[e.CourseID] = true
				courseIDs = append(courseIDs, e.CourseID)
			}
		}
	}
	totals, err := r.lessons.LessonCounts(ctx, workspaceID, courseIDs)
	if err != nil {
		return nil, fmt.Errorf("lesson counts of courses: %w", err)
	}
	for studentID, ens := range byStudent {
		for _, e := range ens {
			out[studentID] = append(out[studentID], query.Enrollment{
				ID: e.ID, CourseID: e.CourseID, Status: e.Status, CreatedAt: e.CreatedAt.UTC(),
				RevokedAt: utcPtr(e.RevokedAt), CompletedAt: utcPtr(e.CompletedAt),
				Progress: query.Progress{
					CompletedLessons: e.CompletedLessons, TotalLessons: totals[e.CourseID],
					Percent: enrollments.Percent(e.CompletedLessons, totals[e.CourseID]),
				},
			})
		}
	}
	return out, nil
}
