package schema

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite"
)

const (
	testTopic        = "events"
	testPollInterval = 10 * time.Millisecond
	// testAckDeadline only matters if a test forgets to ack; it is long enough
	// that a slow -race run never triggers a spurious redelivery.
	testAckDeadline = time.Second
	// testWaitTimeout bounds every blocking step so a broken test fails instead of hanging.
	testWaitTimeout = 10 * time.Second
	// testQuietPeriod is how long we watch for unexpected extra deliveries.
	testQuietPeriod = 20 * testPollInterval
)

func openSQLite(t *testing.T, path string) *sqlx.DB {
	t.Helper()
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sqlx.Open("sqlite", dsn)
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func newSQLiteDB(t *testing.T) (*sqlx.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.db")
	db := openSQLite(t, path)
	for _, q := range append(SQLite{}.SchemaInitializingQueries(testTopic), SQLiteOffsets{}.SchemaInitializingQueries(testTopic)...) {
		if _, err := db.Exec(q.Query, q.Args...); err != nil {
			t.Fatalf("init schema: %v", err)
		}
	}
	return db, path
}

func newTestMessages(from, to int) []*message.Message {
	msgs := make([]*message.Message, 0, to-from)
	for i := from; i < to; i++ {
		msg := message.NewMessage(watermill.NewUUID(), []byte(fmt.Sprintf("payload-%03d", i)))
		msg.Metadata.Set("index", strconv.Itoa(i))
		msg.Metadata.Set("kind", "test")
		msgs = append(msgs, msg)
	}
	return msgs
}

// publishInTx publishes msgs in one transaction, chunkSize messages per
// Publish call (one multi-row insert each), then commits or rolls back.
func publishInTx(db *sqlx.DB, commit bool, chunkSize int, msgs []*message.Message) error {
	ctx, cancel := context.WithTimeout(context.Background(), testWaitTimeout)
	defer cancel()
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback() }()

	pub, err := wsql.NewPublisher(tx, wsql.PublisherConfig{SchemaAdapter: SQLite{}}, nil)
	if err != nil {
		return fmt.Errorf("new publisher: %w", err)
	}
	for start := 0; start < len(msgs); start += chunkSize {
		end := min(start+chunkSize, len(msgs))
		if err := pub.Publish(testTopic, msgs[start:end]...); err != nil {
			return fmt.Errorf("publish: %w", err)
		}
	}
	if !commit {
		return nil
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func mustPublish(t *testing.T, db *sqlx.DB, msgs []*message.Message) {
	t.Helper()
	if err := publishInTx(db, true, 10, msgs); err != nil {
		t.Fatal(err)
	}
}

// startSubscriber starts a subscriber; it is closed at cleanup, and any error it
// logged (e.g. SQLITE_BUSY while polling) fails the test.
func startSubscriber(t *testing.T, db wsql.Beginner, group string) (*wsql.Subscriber, <-chan *message.Message) {
	t.Helper()
	logger := watermill.NewCaptureLogger()
	deadline := testAckDeadline
	sub, err := wsql.NewSubscriber(db, wsql.SubscriberConfig{
		ConsumerGroup:    group,
		AckDeadline:      &deadline,
		PollInterval:     testPollInterval,
		ResendInterval:   testPollInterval,
		RetryInterval:    testPollInterval,
		SchemaAdapter:    SQLite{},
		OffsetsAdapter:   SQLiteOffsets{},
		InitializeSchema: true,
	}, logger)
	if err != nil {
		t.Fatalf("new subscriber: %v", err)
	}
	ch, err := sub.Subscribe(context.Background(), testTopic)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	t.Cleanup(func() {
		_ = sub.Close()
		for _, m := range logger.Captured()[watermill.ErrorLogLevel] {
			t.Errorf("subscriber %q logged error: %s: %v", group, m.Msg, m.Err)
		}
	})
	return sub, ch
}

// receiveAndAck acks and returns the next n messages.
func receiveAndAck(ch <-chan *message.Message, n int) ([]*message.Message, error) {
	timeout := time.After(testWaitTimeout)
	got := make([]*message.Message, 0, n)
	for len(got) < n {
		select {
		case msg, ok := <-ch:
			if !ok {
				return got, errors.New("subscriber channel closed")
			}
			msg.Ack()
			got = append(got, msg)
		case <-timeout:
			return got, fmt.Errorf("timed out after %d of %d messages", len(got), n)
		}
	}
	return got, nil
}

func mustReceive(t *testing.T, ch <-chan *message.Message, n int) []*message.Message {
	t.Helper()
	got, err := receiveAndAck(ch, n)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func assertNoMore(t *testing.T, ch <-chan *message.Message) {
	t.Helper()
	select {
	case msg := <-ch:
		msg.Ack()
		t.Errorf("unexpected extra delivery: %s %q", msg.UUID, msg.Payload)
	case <-time.After(testQuietPeriod):
	}
}

func assertSameMessages(t *testing.T, got, want []*message.Message) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.UUID != w.UUID || string(g.Payload) != string(w.Payload) || !maps.Equal(g.Metadata, w.Metadata) {
			t.Fatalf("message %d: got %s %q %v, want %s %q %v", i, g.UUID, g.Payload, g.Metadata, w.UUID, w.Payload, w.Metadata)
		}
	}
}

func ackedOffset(t *testing.T, db *sqlx.DB, group string) int64 {
	t.Helper()
	var offset int64
	q := `SELECT offset_acked FROM ` + SQLiteOffsets{}.OffsetsTable(testTopic) + ` WHERE consumer_group = ?`
	if err := db.Get(&offset, q, group); err != nil {
		t.Fatalf("read acked offset: %v", err)
	}
	return offset
}

func TestSQLiteDeliversAllInOrderExactlyOnce(t *testing.T) {
	// The subscriber either shares the publisher's single-connection pool
	// or has its own, in which case SQLite's busy_timeout arbitrates.
	for _, tc := range []struct {
		name         string
		secondHandle bool
	}{{"shared handle", false}, {"second handle", true}} {
		t.Run(tc.name, func(t *testing.T) {
			db, path := newSQLiteDB(t)
			subDB := db
			if tc.secondHandle {
				subDB = openSQLite(t, path)
			}
			_, ch := startSubscriber(t, subDB, "group")

			// Publish while the subscriber is polling: 10 transactions of
			// 50 messages, 10 per multi-row insert.
			sent := newTestMessages(0, 500)
			published := make(chan error, 1)
			go func() {
				for start := 0; start < len(sent); start += 50 {
					if err := publishInTx(db, true, 10, sent[start:start+50]); err != nil {
						published <- err
						return
					}
				}
				published <- nil
			}()

			got, err := receiveAndAck(ch, len(sent))
			if pubErr := <-published; pubErr != nil {
				t.Fatalf("publishing: %v", pubErr)
			}
			if err != nil {
				t.Fatal(err)
			}
			assertSameMessages(t, got, sent)
			assertNoMore(t, ch)
			if off := ackedOffset(t, db, "group"); off != 500 {
				t.Errorf("acked offset = %d, want 500", off)
			}
		})
	}
}

func TestSQLiteConsumerGroupsAreIndependent(t *testing.T) {
	db, _ := newSQLiteDB(t)
	sent := newTestMessages(0, 200)
	mustPublish(t, db, sent[:100])

	// Both groups are drained concurrently, and before the second publish:
	// a subscriber holds its transaction (and the single connection) until
	// its batch is acked, so a consumer not reading yet stalls every other
	// user of the handle until its AckDeadline.
	type result struct {
		msgs []*message.Message
		err  error
	}
	results := map[string]chan result{"a": make(chan result, 1), "b": make(chan result, 1)}
	channels := map[string]<-chan *message.Message{}
	for group, res := range results {
		// Start reading before the next Subscribe, which itself needs the
		// connection for its BeforeSubscribingQueries.
		_, ch := startSubscriber(t, db, group)
		channels[group] = ch
		go func() {
			msgs, err := receiveAndAck(ch, len(sent))
			res <- result{msgs, err}
		}()
	}
	mustPublish(t, db, sent[100:])

	for group, res := range results {
		r := <-res
		if r.err != nil {
			t.Fatalf("group %s: %v", group, r.err)
		}
		assertSameMessages(t, r.msgs, sent)
	}
	for _, ch := range channels {
		assertNoMore(t, ch)
	}
	for group := range results {
		if off := ackedOffset(t, db, group); off != int64(len(sent)) {
			t.Errorf("group %s acked offset = %d, want %d", group, off, len(sent))
		}
	}
}

func TestSQLiteRolledBackMessageIsNeverDelivered(t *testing.T) {
	db, _ := newSQLiteDB(t)
	_, ch := startSubscriber(t, db, "group")

	if err := publishInTx(db, false, 10, newTestMessages(0, 1)); err != nil {
		t.Fatal(err)
	}
	committed := newTestMessages(1, 2)
	mustPublish(t, db, committed)

	assertSameMessages(t, mustReceive(t, ch, 1), committed)
	assertNoMore(t, ch)
}

func TestSQLiteNackRedeliversSameMessageFirst(t *testing.T) {
	db, _ := newSQLiteDB(t)
	sent := newTestMessages(0, 3)
	mustPublish(t, db, sent)
	_, ch := startSubscriber(t, db, "group")

	select {
	case msg := <-ch:
		assertSameMessages(t, []*message.Message{msg}, sent[:1])
		msg.Nack()
	case <-time.After(testWaitTimeout):
		t.Fatal("timed out waiting for first delivery")
	}

	// The redelivery comes before anything else, then the rest in order.
	assertSameMessages(t, mustReceive(t, ch, 3), sent)
	assertNoMore(t, ch)
}

func TestSQLiteRestartResumesAfterLastAck(t *testing.T) {
	db, _ := newSQLiteDB(t)
	sent := newTestMessages(0, 20)
	mustPublish(t, db, sent)

	const acked = 7
	first, ch := startSubscriber(t, db, "group")
	assertSameMessages(t, mustReceive(t, ch, acked), sent[:acked])
	// Take the next message and nack it, as a handler interrupted by
	// shutdown would: this also proves message 7's ack was processed, so
	// Close cannot race with it.
	select {
	case msg := <-ch:
		msg.Nack()
	case <-time.After(testWaitTimeout):
		t.Fatal("timed out waiting for message after the acked ones")
	}
	if err := first.Close(); err != nil {
		t.Fatalf("close first subscriber: %v", err)
	}
	if off := ackedOffset(t, db, "group"); off != acked {
		t.Fatalf("acked offset after close = %d, want %d", off, acked)
	}

	_, ch2 := startSubscriber(t, db, "group")
	assertSameMessages(t, mustReceive(t, ch2, len(sent)-acked), sent[acked:])
	assertNoMore(t, ch2)
}
