package schema

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/application/events"
)

const defaultBatchSize = 100

// SQLite is a wsql.SchemaAdapter for SQLite: one table per topic,
// offsets assigned by AUTOINCREMENT.
type SQLite struct {
	// BatchSize is how many messages one subscriber transaction reads; 0 means 100.
	BatchSize int
	// Parts and Part select the subscriber's partition; Parts <= 1: the whole stream.
	Parts, Part int
}

var _ wsql.SchemaAdapter = SQLite{}

// MessagesTable returns the quoted table name; watermill-sql validates topic
// names to [A-Za-z0-9-$:._], so double quotes are enough to make it safe.
func (s SQLite) MessagesTable(topic string) string {
	return `"watermill_` + topic + `"`
}

func (s SQLite) SchemaInitializingQueries(topic string) []wsql.Query {
	// AUTOINCREMENT (not plain rowid) so offsets are never reused after the
	// newest rows are deleted; otherwise a consumer could skip new messages.
	return []wsql.Query{{Query: `CREATE TABLE IF NOT EXISTS ` + s.MessagesTable(topic) + ` (
		"offset" INTEGER PRIMARY KEY AUTOINCREMENT,
		uuid TEXT NOT NULL,
		created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
		payload BLOB,
		metadata TEXT,
		partition_key INTEGER NOT NULL DEFAULT 0
	)`}}
}

func (s SQLite) InsertQuery(topic string, msgs message.Messages) (wsql.Query, error) {
	if len(msgs) == 0 {
		return wsql.Query{}, fmt.Errorf("no messages to insert into topic %s", topic)
	}
	args := make([]any, 0, 4*len(msgs))
	for _, msg := range msgs {
		metadata, err := json.Marshal(msg.Metadata)
		if err != nil {
			return wsql.Query{}, fmt.Errorf("marshal metadata of message %s: %w", msg.UUID, err)
		}
		args = append(args, msg.UUID, []byte(msg.Payload), string(metadata), int64(events.PartitionKey(msg.Metadata.Get(eventbus.MetaWorkspaceID))))
	}
	values := strings.TrimSuffix(strings.Repeat("(?,?,?,?),", len(msgs)), ",")
	query := `INSERT INTO ` + s.MessagesTable(topic) + ` (uuid, payload, metadata, partition_key) VALUES ` + values
	return wsql.Query{Query: query, Args: args}, nil
}

func (s SQLite) SelectQuery(topic string, consumerGroup string, offsetsAdapter wsql.OffsetsAdapter) wsql.Query {
	next := offsetsAdapter.NextOffsetQuery(topic, consumerGroup)
	// COALESCE: a missing offsets row means nothing was acked yet.
	query := `WITH last_processed AS (` + next.Query + `)
		SELECT "offset", uuid, payload, metadata FROM ` + s.MessagesTable(topic) + `
		WHERE ` + PartitionFilter(s.Parts, s.Part) + `"offset" > COALESCE((SELECT offset_acked FROM last_processed), 0)
		ORDER BY "offset" ASC
		LIMIT ` + fmt.Sprint(s.batchSize())
	return wsql.Query{Query: query, Args: next.Args}
}

func (s SQLite) UnmarshalMessage(row wsql.Scanner) (wsql.Row, error) {
	var r wsql.Row
	if err := row.Scan(&r.Offset, &r.UUID, &r.Payload, &r.Metadata); err != nil {
		return wsql.Row{}, fmt.Errorf("scan message row: %w", err)
	}
	msg := message.NewMessage(string(r.UUID), r.Payload)
	if len(r.Metadata) > 0 {
		if err := json.Unmarshal(r.Metadata, &msg.Metadata); err != nil {
			return wsql.Row{}, fmt.Errorf("unmarshal metadata of message %s: %w", r.UUID, err)
		}
	}
	r.Msg = msg
	return r, nil
}

// SubscribeIsolationLevel is the default: SQLite transactions are always
// serializable, and modernc.org/sqlite ignores the level anyway. What matters
// is that the DB handle uses _txlock=immediate, so the subscriber's
// read-then-ack transaction takes the write lock up front instead of failing
// with SQLITE_BUSY when it upgrades.
func (s SQLite) SubscribeIsolationLevel() sql.IsolationLevel {
	return sql.LevelDefault
}

func (s SQLite) batchSize() int {
	if s.BatchSize <= 0 {
		return defaultBatchSize
	}
	return s.BatchSize
}
