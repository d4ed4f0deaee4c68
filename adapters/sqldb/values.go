package sqldb

import "strings"

// Values returns "VALUES (...), (...)" with rows rows of '?' placeholders, one per type
// (to be rebound with the rest of the statement). The columns are column1, column2, ...
// on both engines. PostgreSQL cannot infer the type of a parameter inside VALUES, so each
// is cast; SQLite takes the values as bound (a CAST to TIMESTAMPTZ would give NUMERIC
// affinity and turn '2025-01-02 ...' into 2025).
func (db *DB) Values(rows int, types ...string) string {
	one := make([]string, len(types))
	for i, t := range types {
		one[i] = "?"
		if db.Dialect == Postgres {
			one[i] = "CAST(? AS " + t + ")"
		}
	}
	row := "(" + strings.Join(one, ", ") + ")"
	var b strings.Builder
	b.Grow(7 + rows*(len(row)+2))
	b.WriteString("VALUES ")
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return b.String()
}
