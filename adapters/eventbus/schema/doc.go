// Package schema is the SQL shape of the outbox for watermill-sql: the schema adapters
// (insert, poll per partition, unmarshal) and offsets adapters of SQLite and PostgreSQL,
// the partition filters the polls and positions share, and the rows of consumer
// positions (watermill_offsets_events).
package schema
