package sqltransport

import (
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
)

// countingSchema counts the rows of each poll, so that the gate can tell a partial
// batch (everything visible was read: poll again only when signalled) from a full one
// (more may be waiting: poll again at once). watermill-sql unmarshals the rows and then
// calls the BackoffManager on the same goroutine, so the count needs no lock.
type countingSchema struct {
	wsql.SchemaAdapter
	rows *int
}

func (s countingSchema) UnmarshalMessage(row wsql.Scanner) (wsql.Row, error) {
	*s.rows++
	return s.SchemaAdapter.UnmarshalMessage(row)
}
