package query

import (
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// FromDomain shows s with its enrollment history (oldest first): what the student.*
// events carry, the profile taken from the aggregate the use case just changed.
func FromDomain(s *students.Student, history []Enrollment) Student {
	if history == nil {
		history = []Enrollment{}
	}
	meta := s.Metadata
	if meta == nil {
		meta = map[string]string{}
	}
	return Student{
		ID: s.ID, Livemode: kernel.Livemode(s.WorkspaceID), Email: s.Email, FirstName: s.FirstName, LastName: s.LastName, ExternalID: s.ExternalID,
		Metadata: meta, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(), Enrollments: history,
	}
}
