package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/application/events"
)

// Postgres is watermill-sql's PostgreSQL schema with a poll that seeks, and with
// partitions. The default poll selects `(transaction_id = X AND offset > Y) OR
// transaction_id > X`, which the planner answers by walking the primary key from the
// oldest retained event and filtering: with a month of events retained (or many written
// by one transaction) each poll read about a million index entries (300 ms). The row
// comparison below is the same condition as one index range, so a poll reads only what
// lies past the position. A partition's poll puts `partition_key % Parts`, the leading
// expression of the layout's index (lease.EnsureLayoutIndex), in front of that row
// (PartitionBeyond), so it stays one range scan of that index whatever the other
// partitions hold.
type Postgres struct {
	wsql.DefaultPostgreSQLSchema
	Parts, Part int // the subscriber's partition; Parts <= 1: the whole stream
	// HeldBack, when set, makes each row of a poll say whether events beyond the position
	// are held back (committed before the poll's snapshot, at or past its xmin), and
	// records that here: a partial batch that says none lets its gate sleep without the
	// pending check (gate.HandleError).
	HeldBack *bool
}

// InsertQuery stores each event's partition key (events.PartitionKey of its workspace).
func (s Postgres) InsertQuery(topic string, msgs message.Messages) (wsql.Query, error) {
	if len(msgs) == 0 {
		return wsql.Query{}, fmt.Errorf("no messages to insert into topic %s", topic)
	}
	var b strings.Builder
	args := make([]any, 0, 4*len(msgs))
	for i, msg := range msgs {
		metadata, err := json.Marshal(msg.Metadata)
		if err != nil {
			return wsql.Query{}, fmt.Errorf("marshal metadata of message %s: %w", msg.UUID, err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		n := 4 * i
		fmt.Fprintf(&b, "($%d,$%d,$%d,pg_current_xact_id(),$%d)", n+1, n+2, n+3, n+4)
		args = append(args, msg.UUID, []byte(msg.Payload), metadata, int64(events.PartitionKey(msg.Metadata.Get(eventbus.MetaWorkspaceID))))
	}
	return wsql.Query{Query: `INSERT INTO ` + s.MessagesTable(topic) +
		` (uuid, payload, metadata, transaction_id, partition_key) VALUES ` + b.String(), Args: args}, nil
}

func (s Postgres) SelectQuery(topic, consumerGroup string, offsets wsql.OffsetsAdapter) wsql.Query {
	next := offsets.NextOffsetQuery(topic, consumerGroup) // locks the group's row (FOR UPDATE)
	batch := s.SubscribeBatchSize
	if batch <= 0 {
		batch = 100
	}
	heldBack := ""
	if s.HeldBack != nil {
		heldBack = `, EXISTS (SELECT 1 FROM ` + s.MessagesTable(topic) + ` WHERE ` + PartitionFilter(s.Parts, s.Part) + `(transaction_id, "offset") > (
				(SELECT last_processed_transaction_id FROM last_processed),
				(SELECT offset_acked FROM last_processed))
			AND transaction_id >= pg_snapshot_xmin(pg_current_snapshot())) AS held_back`
	}
	beyond, order := PartitionBeyond(s.Parts, s.Part,
		"(SELECT last_processed_transaction_id FROM last_processed)", "(SELECT offset_acked FROM last_processed)")
	return wsql.Query{Query: `
		WITH last_processed AS (` + next.Query + `)
		SELECT "offset", transaction_id, uuid, payload, metadata` + heldBack + ` FROM ` + s.MessagesTable(topic) + `
		WHERE ` + beyond + `
			AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY ` + order + `
		LIMIT ` + fmt.Sprintf("%d", batch), Args: next.Args}
}

// PartitionBeyond is the PostgreSQL condition "an event of partition part of parts past
// the position (tx, off)", and the order to read such events in. Partitioned, it is one
// range of the layout index, from (part, tx, off) to the next partition, read in the
// index's order, which no other index serves. Written as `partition_key % parts = part AND
// (transaction_id, offset) > (tx, off)`, the primary key serves the same order, and where
// statistics say the partition is dense (a workspace that wrote most events) the planner
// took it and walked every other partition's events beyond the position: after a
// saturation run on the aged bench database, 16,686 index entries per check of an idle
// partition (12-18 ms instead of 0.1). Same rows, same order: the partition key is an
// integer, so the range holds partition part alone.
func PartitionBeyond(parts, part int, tx, off string) (where, order string) {
	if parts <= 1 {
		return `(transaction_id, "offset") > (` + tx + `, ` + off + `)`, `transaction_id, "offset"`
	}
	key := fmt.Sprintf("partition_key %% %d", parts)
	return fmt.Sprintf(`(%s, transaction_id, "offset") > (%d, %s, %s) AND %s < %d`, key, part, tx, off, key, part+1),
		key + `, transaction_id, "offset"`
}

// UnmarshalMessage reads a polled row, and its held_back column when HeldBack is set.
func (s Postgres) UnmarshalMessage(row wsql.Scanner) (wsql.Row, error) {
	if s.HeldBack == nil {
		return s.DefaultPostgreSQLSchema.UnmarshalMessage(row)
	}
	var (
		r             wsql.Row
		transactionID int64
		heldBack      bool
	)
	if err := row.Scan(&r.Offset, &transactionID, &r.UUID, &r.Payload, &r.Metadata, &heldBack); err != nil {
		return wsql.Row{}, fmt.Errorf("could not scan message row: %w", err)
	}
	msg := message.NewMessage(string(r.UUID), r.Payload)
	if r.Metadata != nil {
		if err := json.Unmarshal(r.Metadata, &msg.Metadata); err != nil {
			return wsql.Row{}, fmt.Errorf("could not unmarshal metadata as JSON: %w", err)
		}
	}
	r.Msg = msg
	r.ExtraData = map[string]any{"transaction_id": transactionID}
	*s.HeldBack = heldBack
	return r, nil
}

// PartitionFilter is the poll's condition for partition part of parts, as literals: the
// expression must match the layout index's text for either planner to use it.
func PartitionFilter(parts, part int) string {
	if parts <= 1 {
		return ""
	}
	return fmt.Sprintf("partition_key %% %d = %d AND ", parts, part)
}

// PollStatement is the poll of partition part of parts on PostgreSQL, batch events at a
// time, with the held_back column; its one argument is the consumer group. For EXPLAIN
// (tests/plans_test.go): the subscriber builds the same statement.
func PollStatement(parts, part, batch int) string {
	var heldBack bool
	s := Postgres{DefaultPostgreSQLSchema: wsql.DefaultPostgreSQLSchema{SubscribeBatchSize: batch}, Parts: parts, Part: part, HeldBack: &heldBack}
	return s.SelectQuery(eventbus.Topic, eventbus.PartGroup("", part, parts), wsql.DefaultPostgreSQLOffsetsAdapter{}).Query
}
