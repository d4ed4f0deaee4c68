package web

import "github.com/creatorapi/creatorapi/application/students/command"

// The request bodies both HTTP ports accept for the same use case: one type each, so
// that the public API and the operator API cannot drift apart.

// CreateStudentBody is the body of POST /students and POST W/students.
type CreateStudentBody struct {
	Email      string            `json:"email" validate:"required,max=254"`
	FirstName  string            `json:"firstName" validate:"max=100"`
	LastName   string            `json:"lastName" validate:"max=100"`
	ExternalID string            `json:"externalId" validate:"max=255"`
	Metadata   map[string]string `json:"metadata" validate:"max=50"`
}

// Command is the create command for the workspace.
func (b CreateStudentBody) Command(workspaceID string) command.CreateStudent {
	return command.CreateStudent{WorkspaceID: workspaceID, Email: b.Email, FirstName: b.FirstName, LastName: b.LastName,
		ExternalID: b.ExternalID, Metadata: b.Metadata}
}
