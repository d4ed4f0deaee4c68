package schema

import (
	"strconv"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Position is one row of watermill_offsets_events.
type Position struct {
	Group string `db:"consumer_group"`
	Tx    string `db:"tx"` // PostgreSQL's last_processed_transaction_id; '' on SQLite
	Off   int64  `db:"off"`
}

// Before orders positions in stream order.
func (p Position) Before(q Position) bool {
	a, _ := strconv.ParseUint(p.Tx, 10, 64)
	b, _ := strconv.ParseUint(q.Tx, 10, 64)
	if a != b {
		return a < b
	}
	return p.Off < q.Off
}

// LaggardOf returns the Position of ps that comes first in the stream (ps not empty).
func LaggardOf(ps []Position) Position {
	first := ps[0]
	for _, p := range ps[1:] {
		if p.Before(first) {
			first = p
		}
	}
	return first
}

// PositionsQuery lists a consumer's positions in every layout ($1 its name, $2 its name
// followed by /p%).
func PositionsQuery(db *sqldb.DB) string {
	if db.Dialect == sqldb.Postgres {
		return `SELECT consumer_group, last_processed_transaction_id::text AS tx, COALESCE(offset_acked, 0) AS off
			FROM watermill_offsets_events WHERE consumer_group = $1 OR consumer_group LIKE $2`
	}
	return `SELECT consumer_group, '' AS tx, COALESCE(offset_acked, 0) AS off FROM watermill_offsets_events
		WHERE consumer_group = ? OR consumer_group LIKE ?`
}
