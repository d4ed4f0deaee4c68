package container

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Events delivered in the replicas run, and how long the receiver holds each delivery
// until the kill: with 16 requests per endpoint per instance, three instances deliver 48
// a second, so that however slowly the events are created, deliveries are still in flight
// on every replica when the signals come. After the kill it answers at once.
const (
	replicaEvents = 1000
	receiverHold  = time.Second
	leaseExpiry   = 30 * time.Second // compose.webhookLease: a dead instance's claims wait this long
)

// Three replicas of the image on one PostgreSQL schema and one Redis namespace: a
// 60/minute key admits exactly 60 of 200 concurrent requests across them; 1,000 events
// reach a receiver exactly once in effect while one replica is stopped (SIGTERM: its
// attempts in flight finish and are recorded) and another is killed (SIGKILL: the last
// one takes its deliveries over when its leases expire).
func TestThreeReplicasOnPostgreSQLAndRedis(t *testing.T) {
	p, img := podman(t)
	dbURL := freshDatabase(t)
	redisURL := redisURL(t)
	env := map[string]string{
		"CREATORAPI_DATABASE_URL":          dbURL,
		"CREATORAPI_REDIS_URL":             redisURL,
		"CREATORAPI_REDIS_PREFIX":          "creatorapi-container-" + p.run + ":",
		"CREATORAPI_SECRET_KEY":            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"CREATORAPI_ADMIN_TOKEN":           adminToken,
		"CREATORAPI_WEBHOOK_ALLOW_PRIVATE": "true",
		"CREATORAPI_SHUTDOWN_GRACE":        "20s",
	}
	var replicas []*Container
	for i := range 3 {
		replicas = append(replicas, p.Start(t, img, fmt.Sprintf("replica%d", i), "", env))
	}
	var slowest time.Duration
	for _, r := range replicas {
		slowest = max(slowest, r.WaitReady(t, time.Minute))
	}
	t.Logf("three replicas ready (fresh PostgreSQL database, migrated once under the lock) %s after the last start", slowest.Round(time.Millisecond))
	var ready struct{ Checks map[string]string }
	expect(t, http.StatusOK, http.MethodGet, replicas[0].API+"/readyz", "", nil, &ready)
	if ready.Checks["redis"] != "ok" || ready.Checks["database"] != "ok" || ready.Checks["migrations"] != "ok" {
		t.Fatalf("readyz checks %v", ready.Checks)
	}

	admin := replicas[0].Admin + "/internal/v1"
	var ws struct{ ID string }
	expect(t, http.StatusCreated, http.MethodPost, admin+"/workspaces", adminToken,
		map[string]string{"name": "Replicas", "ownerEmail": "owner@example.com"}, &ws)
	W := admin + "/workspaces/" + ws.ID

	t.Run("60 per minute across three replicas", func(t *testing.T) {
		key := createKey(t, replicas[0].Admin, adminToken, ws.ID, 60, 1_000_000, "read:courses")
		// The 200 requests must fall in one clock minute.
		if s := time.Now().UTC().Second(); s > 50 {
			time.Sleep(time.Duration(61-s) * time.Second)
		}
		var ok, limited, other atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				switch call(t, http.MethodGet, replicas[i%3].API+"/api/v1/courses?limit=1", key, nil, nil) {
				case http.StatusOK:
					ok.Add(1)
				case http.StatusTooManyRequests:
					limited.Add(1)
				default:
					other.Add(1)
				}
			}()
		}
		close(start)
		wg.Wait()
		if ok.Load() != 60 || limited.Load() != 140 || other.Load() != 0 {
			t.Fatalf("200 concurrent requests: %d admitted, %d limited, %d other; want 60, 140, 0", ok.Load(), limited.Load(), other.Load())
		}
	})

	t.Run("1000 events exactly once with a replica stopped and one killed", func(t *testing.T) {
		rcv := NewReceiver(t, receiverHold)
		var hook struct{ ID string }
		expect(t, http.StatusCreated, http.MethodPost, W+"/webhooks", adminToken,
			map[string]any{"url": rcv.URL, "events": []string{"student.created"}}, &hook)

		created := time.Now()
		var wg sync.WaitGroup
		jobs := make(chan int)
		for w := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					url := replicas[w%3].Admin + "/internal/v1/workspaces/" + ws.ID + "/students"
					expect(t, http.StatusCreated, http.MethodPost, url, adminToken,
						map[string]string{"email": fmt.Sprintf("student%04d@example.com", i)}, nil)
				}
			}()
		}
		for i := range replicaEvents {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		t.Logf("%d students created in %s; %d events delivered meanwhile", replicaEvents, time.Since(created).Round(time.Millisecond), rcv.Distinct())

		// SIGTERM replica 1 with deliveries in flight: it finishes and records them.
		if n := rcv.Distinct(); n > replicaEvents-300 {
			t.Fatalf("%d of %d events arrived while they were created: too few left to stop and kill replicas in the middle", n, replicaEvents)
		}
		termAt := time.Now()
		replicas[1].Signal(t, "TERM")
		if code := replicas[1].Wait(t, 30*time.Second); code != "0" {
			t.Fatalf("replica 1 exited %s after SIGTERM", code)
		}
		t.Logf("replica 1 stopped with deliveries in flight: exit 0 in %s (%s)", time.Since(termAt).Round(time.Millisecond), stoppedLine(replicas[1].Logs(t)))

		// SIGKILL a replica in the middle of its deliveries: its dispatcher holds the
		// deliveries of the students it created, leased to it by the fan-out in their
		// transactions (docs/webhooks.md).
		db, err := sqlx.Open("pgx", dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		from := rcv.Distinct()
		waitFor(t, time.Minute, "more events after the stop", func() bool { return rcv.Distinct() >= from+50 })
		victim, survivor := replicas[0], replicas[2]
		killAt := time.Now()
		victim.Signal(t, "KILL")
		killed := time.Now() // podman kill returns once the signal is delivered
		rcv.SetHold(0)
		victim.Wait(t, 30*time.Second)

		// Done when the database has every delivery succeeded: the killed replica's
		// deliveries wait for their leases to expire, then a survivor sends them.
		var succeeded, leased int
		waitFor(t, leaseExpiry+time.Minute, "every delivery recorded as succeeded", func() bool {
			err := db.QueryRowContext(context.Background(), `SELECT
			    COUNT(*) FILTER (WHERE status = 'succeeded'),
			    COUNT(*) FILTER (WHERE status = 'pending' AND lease_until > now())
			  FROM webhook_deliveries WHERE subscription_id = $1`, hook.ID).Scan(&succeeded, &leased)
			if err != nil {
				t.Fatal(err)
			}
			return succeeded == replicaEvents
		})
		if leased != 0 || rcv.Distinct() != replicaEvents {
			t.Fatalf("%d deliveries still leased; %d distinct events arrived", leased, rcv.Distinct())
		}
		time.Sleep(time.Second) // a stray duplicate would arrive now
		last, dups := time.Time{}, 0
		for id, at := range rcv.Arrivals() {
			for _, a := range at {
				if a.After(last) {
					last = a
				}
			}
			if len(at) == 1 {
				continue
			}
			dups++
			// Only the killed replica may have sent without recording: its requests were
			// in flight between the stop and the kill, and they are sent again once, when
			// their leases have expired. A lease is handed over in the creating transaction,
			// so none was granted before the creation began: no second send comes sooner
			// than created + leaseExpiry, however long the killed replica's backlog was.
			if len(at) != 2 || !at[0].After(termAt) || at[0].After(killed) || at[1].Before(created.Add(leaseExpiry)) || !at[1].After(killed) {
				t.Errorf("event %s arrived at %v (stop %v, kill %v to %v)", id, at, termAt, killAt, killed)
			}
		}
		if dups == 0 || last.Before(created.Add(leaseExpiry)) {
			t.Fatalf("no delivery was in flight on the killed replica (%d sent again, last %s after the kill)", dups, last.Sub(killAt))
		}
		t.Logf("%d events delivered exactly once in effect; %d sent again %s after the kill (in flight on the killed replica)",
			replicaEvents, dups, last.Sub(killAt).Round(time.Millisecond))

		survivor.Signal(t, "TERM")
		if code := survivor.Wait(t, 30*time.Second); code != "0" {
			t.Fatalf("the surviving replica exited %s after SIGTERM", code)
		}
	})
}

// freshDatabase creates a database of this run's own (dropped at cleanup): not a schema in
// the shared one, whose migration lock the other suites take at the same time.
func freshDatabase(t *testing.T) string {
	base := os.Getenv(testenv.PostgresURLVar)
	if base == "" {
		testenv.SkipSuite(t, "Container replicas", testenv.PostgresURLVar+" is not set", "set "+testenv.PostgresURLVar)
	}
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	name := "creatorapi_container_" + randomID()
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		admin.Close()
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// redisURL is CREATORAPI_TEST_REDIS_URL; skipped loudly without it, a failure under CI.
func redisURL(t *testing.T) string {
	url := os.Getenv(testenv.RedisURLVar)
	if url == "" {
		testenv.SkipSuite(t, "Container replicas", testenv.RedisURLVar+" is not set", "set "+testenv.RedisURLVar)
	}
	return url
}
