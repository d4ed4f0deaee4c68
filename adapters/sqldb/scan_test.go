package sqldb

import (
	"testing"
	"time"
)

// Untagged fields are named by their column, so rows scan straight into domain types.
func TestSnakeCaseNamesColumns(t *testing.T) {
	for field, column := range map[string]string{
		"ID": "id", "WorkspaceID": "workspace_id", "CSRFToken": "csrf_token", "LastSeenAt": "last_seen_at",
		"DurationSeconds": "duration_seconds", "LiveSessionID": "live_session_id", "Seq": "seq",
	} {
		if got := snakeCase(field); got != column {
			t.Errorf("snakeCase(%q) = %q, want %q", field, got, column)
		}
	}
}

// Scanned instants come back in UTC, in embedded structs and behind pointers too.
func TestInUTCTurnsEveryInstantToUTC(t *testing.T) {
	zone := time.FixedZone("x", 3600)
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, zone)
	type inner struct{ CreatedAt time.Time }
	var row struct {
		inner
		Nested    inner
		RevokedAt *time.Time
		Missing   *time.Time
		hidden    time.Time
	}
	row.CreatedAt, row.Nested.CreatedAt, row.RevokedAt, row.hidden = at, at, &at, at
	InUTC(&row)
	for name, got := range map[string]time.Time{"embedded": row.CreatedAt, "nested": row.Nested.CreatedAt, "pointer": *row.RevokedAt} {
		if got.Location() != time.UTC || !got.Equal(at) {
			t.Errorf("%s: %v, want %v in UTC", name, got, at)
		}
	}
	if at.Location() != zone || row.Missing != nil || row.hidden.Location() != zone {
		t.Errorf("InUTC changed what it must leave: %v %v %v", at, row.Missing, row.hidden)
	}
}
