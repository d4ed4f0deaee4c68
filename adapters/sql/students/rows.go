// Package students is the students module's persistence: it alone names the students
// table (docs/architecture.md, "Table ownership"). Repository stores the aggregate;
// Reads serves the module's read model and its published queries.
package students

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/students"
)

// The students table's columns (but email_lower, which only lookups and the unique
// index use), shared by the repository and the reads.
const studentColumns = `id, workspace_id, email, first_name, last_name, external_id, metadata, created_at, updated_at, deleted_at`

type studentRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	Email       string     `db:"email"`
	FirstName   string     `db:"first_name"`
	LastName    string     `db:"last_name"`
	ExternalID  string     `db:"external_id"`
	Metadata    string     `db:"metadata"`
	CreatedAt   time.Time  `db:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at"`
	DeletedAt   *time.Time `db:"deleted_at"`
}

// student is the aggregate the row holds; its metadata is a JSON object of strings.
func (row studentRow) student() (*students.Student, error) {
	meta := map[string]string{}
	if row.Metadata != "" {
		if err := json.Unmarshal([]byte(row.Metadata), &meta); err != nil {
			return nil, fmt.Errorf("student %s metadata: %w", row.ID, err)
		}
	}
	return &students.Student{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Email: row.Email, FirstName: row.FirstName, LastName: row.LastName,
		ExternalID: row.ExternalID, Metadata: meta, CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
		DeletedAt: platform.UTCPtr(row.DeletedAt),
	}, nil
}

func encodeMetadata(m map[string]string) (string, error) {
	if m == nil {
		m = map[string]string{}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("encode metadata: %w", err)
	}
	return string(raw), nil
}
