package sqldb

import "github.com/jackc/pgx/v5"

// SimpleProtocol, given as the first argument of a statement on PostgreSQL, sends it with
// the simple query protocol: pgx puts the arguments into the text itself (quoted by its
// sanitizer, which refuses to run unless standard_conforming_strings is on), so that one
// round trip may carry several statements separated by semicolons. RowsAffected is then
// the last statement's. Never on SQLite.
const SimpleProtocol = pgx.QueryExecModeSimpleProtocol
