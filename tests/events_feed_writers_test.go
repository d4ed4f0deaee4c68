package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Never skips, never repeats: 8 writers commit events in transactions that linger a
// random while after their insert (on PostgreSQL a later-numbered transaction often
// commits first), while a reader pages the tail with the cursors the feed gives. At the
// end the reader has every event exactly once.
func TestEventsFeedConcurrentWritersNeverSkipOrRepeat(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var box *outbox.Outbox
		var db *sqldb.DB
		env := testenv.Start(t, dbURL, fx.Populate(&box, &db))
		ws := env.CreateWorkspace(t, "Writers")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, "read:events")
		api := env.API(key)
		start := settledFeed(t, api, 0).Pagination.Cursor // past the workspace's own events, if any

		const writers, perWriter = 8, 25
		var wg sync.WaitGroup
		written := make(chan string, writers*perWriter)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWriter {
					id := fmt.Sprintf("stu_w%di%d", w, i)
					err := db.WithinTx(context.Background(), func(ctx context.Context) error {
						if err := box.Publish(ctx, events.StudentCreatedV1.New(ws, events.Student{ID: id, Email: id + "@example.com",
							Metadata: map[string]string{}, Enrollments: []events.StudentEnrollment{}, CreatedAt: env.Clock.Now(), UpdatedAt: env.Clock.Now()})); err != nil {
							return err
						}
						time.Sleep(time.Duration(rand.IntN(8)) * time.Millisecond) // commit late
						return nil
					})
					if err != nil {
						t.Errorf("writer %d: %v", w, err)
						return
					}
					written <- id
				}
			}()
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()

		seen := map[string]int{}
		var order []string
		cursor := *start
		read := func() int {
			p := getFeed(t, api, fmt.Sprintf("limit=%d&cursor=%s", 1+rand.IntN(7), url.QueryEscape(cursor)))
			for _, ev := range p.Data {
				seen[ev.ID]++
				order = append(order, ev.ID)
			}
			cursor = *p.Pagination.Cursor
			return len(p.Data)
		}
		for finished := false; !finished; {
			select {
			case <-done:
				finished = true
			default:
				read()
			}
		}
		close(written)
		want := map[string]bool{}
		for id := range written {
			want[id] = true
		}
		// After the last commit: read until everything is there (on PostgreSQL other
		// schemas' transactions may still hold the horizon back for a moment).
		deadline := time.Now().Add(20 * time.Second)
		for len(seen) < len(want) && time.Now().Before(deadline) {
			if read() == 0 {
				time.Sleep(10 * time.Millisecond)
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("event %s read %d times", id, n)
			}
		}
		got := map[string]bool{}
		for _, ev := range env.OutboxEvents(t) {
			if seen[ev.ID] > 0 {
				var s events.Student
				if err := jsonUnmarshal(ev.Data, &s); err != nil {
					t.Fatal(err)
				}
				got[s.ID] = true
			}
		}
		for id := range want {
			if !got[id] {
				t.Errorf("student %s's event was skipped", id)
			}
		}
		if len(want) != writers*perWriter || len(seen) != len(want) {
			t.Fatalf("written %d, read %d distinct events (%d reads in all)", len(want), len(seen), len(order))
		}
	})
}
