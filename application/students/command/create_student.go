package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// CreateStudent adds a student, or finds the one that has the e-mail address already
// (CRM lead sync repeats itself).
type CreateStudent struct {
	WorkspaceID string
	Email       string
	FirstName   string
	LastName    string
	ExternalID  string
	Metadata    map[string]string
}

// CreateStudent returns the new student, Created (emitting student.created), or the existing
// student with the same address, unchanged (no event).
func (d Deps) CreateStudent(ctx context.Context, cmd CreateStudent) (out platform.Upsert[query.Student], err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	s, err := students.New(d.IDs.New(students.IDPrefix), cmd.WorkspaceID, students.Profile{
		Email: cmd.Email, FirstName: cmd.FirstName, LastName: cmd.LastName, ExternalID: cmd.ExternalID, Metadata: cmd.Metadata,
	}, d.Clock.Now())
	if err != nil {
		return out, err
	}
	// Insert first and let the unique index decide: a lookup before the insert
	// would let two concurrent requests both create the address.
	if out.Created, err = d.Repo.Add(ctx, s); err != nil {
		return out, err
	}
	if !out.Created {
		existing, err := d.ReadModel.GetByEmail(ctx, cmd.WorkspaceID, s.Email)
		if err != nil {
			return out, err
		}
		out.Value, err = d.History.ShowOne(ctx, cmd.WorkspaceID, existing)
		return out, err
	}
	out.Value = query.FromDomain(s, nil) // a new student has no enrollments yet
	return out, d.Publisher.Publish(ctx, events.StudentCreatedV1.New(cmd.WorkspaceID, out.Value))
}
