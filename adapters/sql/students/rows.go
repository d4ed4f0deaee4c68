// Package students is the students module's persistence: it alone names the students
// table (docs/architecture.md, "Table ownership"). Repository stores the aggregate;
// Reads serves the module's read model and its published queries.
package students

import (
	"encoding/json"
	"fmt"

	"github.com/creatorapi/creatorapi/domain/students"
)

// The students table's columns (but email_lower, which only lookups and the unique
// index use), shared by the repository and the reads.
const studentColumns = `id, workspace_id, email, first_name, last_name, external_id, metadata, created_at, updated_at, deleted_at`

// studentRow is a student row: the aggregate, its metadata a JSON object of strings.
type studentRow struct {
	students.Student
	Metadata string
}

// student is the aggregate the row holds.
func (row studentRow) student() (*students.Student, error) {
	s := row.Student
	s.Metadata = map[string]string{}
	if row.Metadata != "" {
		if err := json.Unmarshal([]byte(row.Metadata), &s.Metadata); err != nil {
			return nil, fmt.Errorf("student %s metadata: %w", row.ID, err)
		}
	}
	return &s, nil
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
