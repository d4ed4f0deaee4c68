package watermill

import (
	"fmt"

	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
)

// postgresSchema is watermill-sql's PostgreSQL schema with a poll that seeks. The
// default poll selects `(transaction_id = X AND offset > Y) OR transaction_id > X`, which
// the planner answers by walking the primary key from the oldest retained event and
// filtering: with a month of events retained (or many written by one transaction) each
// poll read about a million index entries (300 ms). The row comparison below is the same
// condition as one index range, so a poll reads only what lies past the position.
type postgresSchema struct {
	wsql.DefaultPostgreSQLSchema
}

func (s postgresSchema) SelectQuery(topic, consumerGroup string, offsets wsql.OffsetsAdapter) wsql.Query {
	next := offsets.NextOffsetQuery(topic, consumerGroup) // locks the group's row (FOR UPDATE)
	batch := s.SubscribeBatchSize
	if batch <= 0 {
		batch = 100
	}
	return wsql.Query{Query: `
		WITH last_processed AS (` + next.Query + `)
		SELECT "offset", transaction_id, uuid, payload, metadata FROM ` + s.MessagesTable(topic) + `
		WHERE (transaction_id, "offset") > (
				(SELECT last_processed_transaction_id FROM last_processed),
				(SELECT offset_acked FROM last_processed))
			AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
		ORDER BY transaction_id ASC, "offset" ASC
		LIMIT ` + fmt.Sprintf("%d", batch), Args: next.Args}
}
