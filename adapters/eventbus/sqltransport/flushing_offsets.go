package sqltransport

import (
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"

	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
)

// flushingOffsets writes the batch's deferred writes (sqldb.Deferred: the analytics
// projection's counters, say) just before the position is acknowledged. watermill-sql
// commits the batch transaction itself, without a hook; its ack statement is the last one
// it runs in that transaction, after every acknowledged message and only when there is
// one, so asking for it is the moment to flush. A failed flush turns the ack into a
// statement that fails, so that the batch rolls back (effects, deferred writes and
// position together) and comes again.
type flushingOffsets struct {
	wsql.OffsetsAdapter
	flush func() error
	// aborted, when set and true, fails the ack without flushing (batchtx.Abort).
	aborted func() bool
}

// flushFailed is not SQL: running it fails the batch's ack, hence its transaction.
const flushFailed = "deferred writes failed: roll the batch back"

func (o flushingOffsets) AckMessageQuery(topic string, row wsql.Row, consumerGroup string) wsql.Query {
	if o.aborted != nil && o.aborted() {
		return wsql.Query{Query: batchtx.ErrAborted.Error()}
	}
	if err := o.flush(); err != nil {
		return wsql.Query{Query: flushFailed}
	}
	return o.OffsetsAdapter.AckMessageQuery(topic, row, consumerGroup)
}
