package v1

import (
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// studentChanges is a JSON merge patch of a student (RFC 7396): the body of PATCH
// /students/{id} and of each item of POST /students/batch. An absent member leaves its
// field alone; null clears firstName, lastName and externalId, and removes a metadata
// key (or, as "metadata": null, every key); metadata's other keys are set. The domain
// validates the values and names the field.
type studentChanges struct {
	Email      *string            `json:"email" validate:"omitempty,max=254"`
	FirstName  *string            `json:"firstName" validate:"omitempty,max=100"`
	LastName   *string            `json:"lastName" validate:"omitempty,max=100"`
	ExternalID *string            `json:"externalId" validate:"omitempty,max=255"`
	Metadata   map[string]*string `json:"metadata" validate:"max=100"`
	// clearMetadata: the body said "metadata": null.
	clearMetadata bool
}

// decodeStudentChanges reads raw (one JSON object) as studentChanges.
func decodeStudentChanges(dec *web.Decoder, raw []byte) (studentChanges, error) {
	var b studentChanges
	if err := dec.Value(raw, &b); err != nil {
		return b, err
	}
	nulls, err := web.NullMembers(raw)
	if err != nil {
		return b, err
	}
	if nulls["email"] {
		return b, web.Invalid("email", "email cannot be removed: every student has an address")
	}
	empty := ""
	for name, field := range map[string]**string{"firstName": &b.FirstName, "lastName": &b.LastName, "externalId": &b.ExternalID} {
		if nulls[name] {
			*field = &empty
		}
	}
	b.clearMetadata = nulls["metadata"]
	return b, nil
}

// update is the change as an UpdateStudent command; "metadata": null replaces the map
// with an empty one.
func (b studentChanges) update(workspaceID, studentID string) command.UpdateStudent {
	cmd := command.UpdateStudent{WorkspaceID: workspaceID, StudentID: studentID, Email: b.Email, FirstName: b.FirstName,
		LastName: b.LastName, ExternalID: b.ExternalID, MetadataChanges: b.Metadata}
	if b.clearMetadata {
		cmd.Metadata = &map[string]string{}
	}
	return cmd
}

// upsert is the change as one item of a batch upsert.
func (b studentChanges) upsert(workspaceID string) command.UpsertStudent {
	return command.UpsertStudent{WorkspaceID: workspaceID, Email: b.Email, ExternalID: b.ExternalID, FirstName: b.FirstName,
		LastName: b.LastName, MetadataChanges: b.Metadata, ClearMetadata: b.clearMetadata}
}
