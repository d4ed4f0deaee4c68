package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// UpdateStudent edits a profile; nil fields stay as they are, Metadata replaces the map
// (the operator API) and MetadataChanges merges into it (the public API: a nil value
// removes its key).
type UpdateStudent struct {
	WorkspaceID     string
	StudentID       string
	Email           *string
	FirstName       *string
	LastName        *string
	ExternalID      *string
	Metadata        *map[string]string
	MetadataChanges map[string]*string
}

// UpdateStudent saves the change and emits student.updated; an edit that changes nothing
// emits nothing and leaves updatedAt alone.
func (d Deps) UpdateStudent(ctx context.Context, cmd UpdateStudent) (out query.Student, err error) {
	patch := students.Patch{Email: cmd.Email, FirstName: cmd.FirstName, LastName: cmd.LastName, ExternalID: cmd.ExternalID,
		Metadata: cmd.Metadata, MetadataChanges: cmd.MetadataChanges}
	s, changed, err := platform.ChangeIf(ctx, d.Repo, cmd.WorkspaceID, cmd.StudentID, func(s *students.Student) (bool, error) {
		return s.Apply(patch, d.Clock.Now())
	})
	if err != nil {
		return out, err
	}
	if out, err = d.History.ShowOne(ctx, cmd.WorkspaceID, s); err != nil || !changed {
		return out, err
	}
	return out, d.Publisher.Publish(ctx, events.StudentUpdatedV1.New(cmd.WorkspaceID, out))
}
