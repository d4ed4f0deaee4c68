package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// ListStudents asks for a page of a workspace's students, newest first.
type ListStudents struct {
	WorkspaceID string
	Filter      Filter
	Page        platform.PageRequest
}

// ListStudents returns one page.
func (r Reads) ListStudents(ctx context.Context, q ListStudents) (platform.Page[Student], error) {
	if q.Filter.Email != "" {
		// A malformed address can match nothing: say so instead of answering an empty list.
		// A valid one is compared in its stored form (an IDN domain as its A-label).
		email, err := kernel.NormalizeEmail("email", q.Filter.Email)
		if err != nil {
			return platform.Page[Student]{}, err
		}
		q.Filter.Email = students.EmailKey(email)
	}
	return platform.ListPage(ctx, r.ReadModel.List, q.WorkspaceID, q.Filter, q.Page, func(ss []*students.Student) ([]Student, error) {
		return r.History.Show(ctx, q.WorkspaceID, ss)
	})
}
