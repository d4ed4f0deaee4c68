package keys

import (
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// The api_keys table's columns, in the order of the repository's insert.
const keyColumns = `id, workspace_id, name, lookup, last_four, secret_hash, scopes, per_minute, per_day, created_at, revoked_at, last_used_at`

type keyRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	Name        string     `db:"name"`
	Lookup      string     `db:"lookup"`
	LastFour    string     `db:"last_four"`
	SecretHash  []byte     `db:"secret_hash"`
	Scopes      string     `db:"scopes"`
	PerMinute   int        `db:"per_minute"`
	PerDay      int        `db:"per_day"`
	CreatedAt   time.Time  `db:"created_at"`
	RevokedAt   *time.Time `db:"revoked_at"`
	LastUsedAt  *time.Time `db:"last_used_at"`
}

func (row keyRow) key() *keys.Key {
	var scopes []keys.Scope
	for _, s := range strings.Fields(row.Scopes) {
		scopes = append(scopes, keys.Scope(s))
	}
	return &keys.Key{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Name: row.Name, Lookup: row.Lookup, LastFour: row.LastFour, SecretHash: row.SecretHash,
		Scopes: scopes, PerMinute: row.PerMinute, PerDay: row.PerDay,
		CreatedAt: row.CreatedAt.UTC(), RevokedAt: platform.UTCPtr(row.RevokedAt), LastUsedAt: platform.UTCPtr(row.LastUsedAt),
	}
}

func keysOf(rows []keyRow) []*keys.Key {
	out := make([]*keys.Key, len(rows))
	for i, row := range rows {
		out[i] = row.key()
	}
	return out
}
