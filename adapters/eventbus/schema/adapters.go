package schema

import (
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// For returns the schema adapter of the dialect.
func For(d sqldb.Dialect) wsql.SchemaAdapter {
	if d == sqldb.Postgres {
		return Postgres{}
	}
	return SQLite{}
}

// OffsetsFor returns the offsets adapter of the dialect.
func OffsetsFor(d sqldb.Dialect) wsql.OffsetsAdapter {
	if d == sqldb.Postgres {
		return wsql.DefaultPostgreSQLOffsetsAdapter{}
	}
	return SQLiteOffsets{}
}
