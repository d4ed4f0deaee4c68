package command

import (
	"context"
	"strings"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// UpsertStudent creates or updates one student of a CRM sync (an item of POST
// /students/batch). Nil fields are not given; MetadataChanges merges (a nil value
// removes its key).
//
// Which student it is: a non-empty ExternalID that one live student has picks that
// student (the CRM's id is stable, an address can change); otherwise Email picks the
// student with that address; otherwise a student is created, which needs Email. So when
// both are given and name different students, ExternalID wins and Email becomes that
// student's new address, which fails like PATCH does (422 email) while the other
// student keeps it. An ExternalID that several live students share is 422 externalId:
// the item cannot say which one it means.
type UpsertStudent struct {
	WorkspaceID     string
	Email           *string
	ExternalID      *string
	FirstName       *string
	LastName        *string
	MetadataChanges map[string]*string
	ClearMetadata   bool // remove every key before MetadataChanges apply
}

// Upserted outcomes.
const (
	Created   = "created"
	Updated   = "updated"
	Unchanged = "unchanged"
)

// Upserted is what an upsert did to its student.
type Upserted struct {
	Outcome string // Created, Updated or Unchanged
	Student query.Student
}

// UpsertStudent emits student.created or student.updated when it changed the student,
// nothing when the item matched it as it was.
func (d Deps) UpsertStudent(ctx context.Context, cmd UpsertStudent) (Upserted, error) {
	id, err := d.upsertTarget(ctx, cmd)
	if err != nil {
		return Upserted{}, err
	}
	if id == "" {
		created, existingID, err := d.createForUpsert(ctx, cmd)
		if err != nil || created != nil {
			return derefUpserted(created), err
		}
		id = existingID // a concurrent create of the address won: update that student
	}
	patch := students.Patch{Email: cmd.Email, FirstName: cmd.FirstName, LastName: cmd.LastName, ExternalID: cmd.ExternalID,
		MetadataChanges: cmd.MetadataChanges}
	if cmd.ClearMetadata {
		patch.Metadata = &map[string]string{}
	}
	s, changed, err := platform.ChangeIf(ctx, d.Repo, cmd.WorkspaceID, id, func(s *students.Student) (bool, error) {
		return s.Apply(patch, d.Clock.Now())
	})
	if err != nil {
		return Upserted{}, err
	}
	out := Upserted{Outcome: Unchanged}
	if out.Student, err = d.History.ShowOne(ctx, cmd.WorkspaceID, s); err != nil || !changed {
		return out, err
	}
	out.Outcome = Updated
	return out, d.Publisher.Publish(ctx, events.StudentUpdatedV1.New(cmd.WorkspaceID, out.Student))
}

// upsertTarget is the id of the student the item names, or "" when none does.
func (d Deps) upsertTarget(ctx context.Context, cmd UpsertStudent) (string, error) {
	externalID := ""
	if cmd.ExternalID != nil {
		externalID = strings.TrimSpace(*cmd.ExternalID)
	}
	if externalID == "" && cmd.Email == nil {
		return "", kernel.Invalid("email", "give email, externalId or both: they say which student the item is")
	}
	if externalID != "" {
		// Two rows are enough to know whether the id is ambiguous.
		page, err := d.ReadModel.List(ctx, cmd.WorkspaceID, query.Filter{ExternalID: externalID}, platform.PageRequest{Limit: 2})
		if err != nil {
			return "", err
		}
		switch len(page.Items) {
		case 1:
			return page.Items[0].ID, nil
		case 2:
			return "", kernel.Invalid("externalId", "externalId %q is shared by several students; give only email to pick one by address, or PATCH each by id", externalID)
		}
	}
	if cmd.Email == nil {
		return "", nil
	}
	email, err := kernel.NormalizeEmail("email", *cmd.Email)
	if err != nil {
		return "", err
	}
	s, err := d.ReadModel.GetByEmail(ctx, cmd.WorkspaceID, email)
	if kernel.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return s.ID, nil
}

// createForUpsert creates the item's student (student.created); when the unique index
// finds the address taken after all (a concurrent create), it returns that student's id
// instead.
func (d Deps) createForUpsert(ctx context.Context, cmd UpsertStudent) (*Upserted, string, error) {
	if cmd.Email == nil {
		return nil, "", kernel.Invalid("email", "email is required to create a student: no student has externalId %q", deref(cmd.ExternalID))
	}
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return nil, "", err
	}
	meta := map[string]string{}
	for k, v := range cmd.MetadataChanges {
		if v != nil {
			meta[k] = *v
		}
	}
	s, err := students.New(d.IDs.New(students.IDPrefix), cmd.WorkspaceID, students.Profile{
		Email: *cmd.Email, FirstName: deref(cmd.FirstName), LastName: deref(cmd.LastName), ExternalID: deref(cmd.ExternalID), Metadata: meta,
	}, d.Clock.Now())
	if err != nil {
		return nil, "", err
	}
	added, err := d.Repo.Add(ctx, s)
	if err != nil {
		return nil, "", err
	}
	if !added {
		existing, err := d.ReadModel.GetByEmail(ctx, cmd.WorkspaceID, s.Email)
		if err != nil {
			return nil, "", err
		}
		return nil, existing.ID, nil
	}
	out := &Upserted{Outcome: Created, Student: query.FromDomain(s, nil)}
	return out, "", d.Publisher.Publish(ctx, events.StudentCreatedV1.New(cmd.WorkspaceID, out.Student))
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func derefUpserted(u *Upserted) Upserted {
	if u == nil {
		return Upserted{}
	}
	return *u
}
