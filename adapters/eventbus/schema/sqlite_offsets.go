package schema

import (
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
)

// SQLiteOffsets is a wsql.OffsetsAdapter storing one acked offset per
// consumer group.
//
// A plain `offset > offset_acked` is safe in SQLite (unlike PostgreSQL, which
// needs transaction ids): SQLite has a single writer, so AUTOINCREMENT offsets
// are assigned in commit order and no row with a smaller offset can become
// visible after a larger one was read.
type SQLiteOffsets struct{}

var _ wsql.OffsetsAdapter = SQLiteOffsets{}

// OffsetsTable returns the quoted offsets table name for topic.
func (a SQLiteOffsets) OffsetsTable(topic string) string {
	return `"watermill_offsets_` + topic + `"`
}

func (a SQLiteOffsets) SchemaInitializingQueries(topic string) []wsql.Query {
	return []wsql.Query{{Query: `CREATE TABLE IF NOT EXISTS ` + a.OffsetsTable(topic) + ` (
		consumer_group TEXT PRIMARY KEY,
		offset_acked INTEGER NOT NULL DEFAULT 0
	)`}}
}

// NextOffsetQuery has no FOR UPDATE: the subscriber's transaction already
// holds SQLite's write lock (_txlock=immediate), which excludes other consumers.
func (a SQLiteOffsets) NextOffsetQuery(topic, consumerGroup string) wsql.Query {
	return wsql.Query{
		Query: `SELECT offset_acked FROM ` + a.OffsetsTable(topic) + ` WHERE consumer_group = ?`,
		Args:  []any{consumerGroup},
	}
}

func (a SQLiteOffsets) AckMessageQuery(topic string, row wsql.Row, consumerGroup string) wsql.Query {
	return wsql.Query{
		Query: `INSERT INTO ` + a.OffsetsTable(topic) + ` (consumer_group, offset_acked) VALUES (?, ?)
			ON CONFLICT(consumer_group) DO UPDATE SET offset_acked = excluded.offset_acked`,
		Args: []any{consumerGroup, row.Offset},
	}
}

// ConsumedMessageQuery is not needed: the write lock already serializes consumers.
func (a SQLiteOffsets) ConsumedMessageQuery(topic string, row wsql.Row, consumerGroup string, consumerULID []byte) wsql.Query {
	return wsql.Query{}
}

func (a SQLiteOffsets) BeforeSubscribingQueries(topic string, consumerGroup string) []wsql.Query {
	return []wsql.Query{{
		Query: `INSERT INTO ` + a.OffsetsTable(topic) + ` (consumer_group, offset_acked) VALUES (?, 0)
			ON CONFLICT(consumer_group) DO NOTHING`,
		Args: []any{consumerGroup},
	}}
}
