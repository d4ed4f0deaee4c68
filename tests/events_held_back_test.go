package tests

import (
	"context"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// heldBackTiming is why the held-back tests run alone: they time a re-poll (3 s) from the
// end of a transaction, and any transaction elsewhere on the server that began before it
// (a parallel test's seeding) holds the event back longer (a snapshot's xmin is the server's).
const heldBackTiming = "times a re-poll (3 s) after a transaction ends; an older transaction of a parallel test holds the event back longer"

// On PostgreSQL an event committed behind an older open transaction is invisible to the
// poll until that transaction ends, and its commit's wakeup has already been spent. A poll
// that returns a partial batch while such an event waits beyond it must not leave the
// subscriber asleep: the batch's rows say the event is held back, and the subscriber
// re-polls (the burst) instead of sleeping until its safety poll, here a minute away.
// E0 is delivered with E1 held back behind T1; T1 ends while E0 is applied; E1 must follow
// within seconds. (Not on SQLite: one writer, commits are visible in order at once.)
func TestEventsHeldBackBeyondAPartialBatchIsPolledSoon(t *testing.T) {
	testenv.Serial(t, heldBackTiming)
	dbURL := testenv.NewPostgresURL(t)
	labels := make(chan string, 10)
	release, t1Ended := make(chan struct{}), make(chan struct{})
	consumer := events.Consumer{Name: "held-back", Handle: func(ctx context.Context, ev events.Envelope) error {
		label, err := labelOf(ev)
		if err != nil {
			return err
		}
		labels <- label
		switch label {
		case "block-0":
			<-release // the subscriber is busy while E0 and E1 commit
		case "e0":
			<-t1Ended // E0's batch commits after T1: its first re-poll can see E1
		}
		return nil
	}}
	slowPoll := withRouterConfig(func(c *router.Config) { c.PollInterval = time.Minute })
	a := startEventsApp(t, testenv.Config(t, dbURL), slowPoll, withConsumer(consumer))
	if a.DB.Dialect != sqldb.Postgres {
		t.Fatalf("dialect %v: this test is about PostgreSQL's snapshots", a.DB.Dialect)
	}
	expect := func(want string) time.Time {
		t.Helper()
		select {
		case got := <-labels:
			if got != want {
				t.Fatalf("applied %q, want %q", got, want)
			}
			return time.Now()
		case <-time.After(eventsWait):
			t.Fatalf("%q not applied within %v", want, eventsWait)
		}
		return time.Time{}
	}
	ctx := context.Background()

	a.publish(t, 1, "block")
	expect("block-0")

	// E0's transaction takes its id first, then T1 takes a later one, so that once E0
	// commits it is visible while T1 holds every later transaction's events back.
	inserted, commitE0, e0Done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		e0Done <- a.Tx.WithinTx(ctx, func(ctx context.Context) error {
			if err := a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "e0"})); err != nil {
				return err
			}
			close(inserted)
			<-commitE0
			return nil
		})
	}()
	select {
	case <-inserted:
	case err := <-e0Done:
		t.Fatalf("publish E0: %v", err)
	}
	t1 := a.holdBack(t)
	close(commitE0)
	if err := <-e0Done; err != nil {
		t.Fatalf("publish E0: %v", err)
	}
	a.publish(t, 1, "e1") // committed, but behind T1
	close(release)

	expect("e0") // polled with E1 beyond it, held back
	if err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	close(t1Ended)
	// A re-poll takes milliseconds; a subscriber left asleep waits for the next whole
	// minute (its safety check). With the gate ignoring held_back this failed 3 runs of 4.
	d := expect("e1-0").Sub(ended)
	if d > 3*time.Second {
		t.Fatalf("E1 applied %v after the transaction holding it back ended: the subscriber slept instead of polling again", d)
	}
	t.Logf("E1 applied %v after the transaction holding it back ended", d)
}

// An event held back for longer than the burst of re-polls after its commit's wakeup
// (here half a second behind T1) is still polled for while it waits, not left to the
// safety poll a minute away: no commit signals when T1 ends. CI saw this wait out the
// one-minute poll in TestEventsCommitWakesSubscribersWithoutPolling, behind another
// test's long transaction (a snapshot's xmin is the whole server's).
func TestEventsHeldBackLongerThanTheBurstAreStillPolledFor(t *testing.T) {
	testenv.Serial(t, heldBackTiming)
	dbURL := testenv.NewPostgresURL(t)
	labels := make(chan string, 10)
	consumer := events.Consumer{Name: "held-back-long", Handle: func(ctx context.Context, ev events.Envelope) error {
		label, err := labelOf(ev)
		if err != nil {
			return err
		}
		labels <- label
		return nil
	}}
	slowPoll := withRouterConfig(func(c *router.Config) { c.PollInterval = time.Minute })
	a := startEventsApp(t, testenv.Config(t, dbURL), slowPoll, withConsumer(consumer))
	t1 := a.holdBack(t)
	a.publish(t, 1, "held") // committed behind T1; its wakeup finds nothing visible
	time.Sleep(500 * time.Millisecond)
	select {
	case got := <-labels:
		t.Fatalf("applied %q while T1 held it back", got)
	default:
	}
	if err := t1.Commit(); err != nil {
		t.Fatal(err)
	}
	ended := time.Now()
	select {
	case got := <-labels:
		if got != "held-0" {
			t.Fatalf("applied %q, want held-0", got)
		}
		d := time.Since(ended)
		if d > 3*time.Second {
			t.Fatalf("applied %v after the transaction holding it back ended", d)
		}
		t.Logf("applied %v after the transaction holding it back ended", d)
	case <-time.After(eventsWait):
		t.Fatalf("not applied within %v of the end of the transaction holding it back (safety poll: a minute)", eventsWait)
	}
}
