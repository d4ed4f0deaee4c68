package keys

import (
	"strings"

	"github.com/creatorapi/creatorapi/domain/keys"
)

// The api_keys table's columns, in the order of the repository's insert.
const keyColumns = `id, workspace_id, name, lookup, last_four, secret_hash, scopes, per_minute, per_day, created_at, revoked_at, last_used_at`

// keyRow is a key as stored: its scopes are one space-separated column.
type keyRow struct {
	keys.Key
	Scopes string
}

// scopesColumn is how the scopes column stores a key's scopes.
func scopesColumn(scopes []keys.Scope) string { return strings.Join(keys.ScopeNames(scopes), " ") }

func (row keyRow) key() *keys.Key {
	k := row.Key
	k.Scopes = nil
	for _, s := range strings.Fields(row.Scopes) {
		k.Scopes = append(k.Scopes, keys.Scope(s))
	}
	return &k
}

func keysOf(rows []keyRow) []*keys.Key {
	out := make([]*keys.Key, len(rows))
	for i, row := range rows {
		out[i] = row.key()
	}
	return out
}
