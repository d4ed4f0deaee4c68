package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// eventTransport is one way events reach consumers in a multi-instance test: the
// variables it adds to each instance's environment.
type eventTransport struct {
	name string
	env  func(t *testing.T) []string
}

// eventTransports are the transports every scale-out test runs on: the SQL outbox (the
// default), and NATS JetStream when CREATORAPI_TEST_NATS_URL is set (a stream of the
// test's own; skipped loudly without it, a failure under CI).
var eventTransports = []eventTransport{
	{name: "sql", env: func(*testing.T) []string { return nil }},
	{name: "nats", env: func(t *testing.T) []string { return testenv.NATSProcessEnv(t) }},
}

// instance is one `serve` process of the built binary.
type instance struct {
	cmd   *exec.Cmd
	admin string
	logs  *bytes.Buffer
}

// Three `serve` processes share one PostgreSQL database; 3,000 students are created
// through the operator API of two of them, and the third is killed with SIGKILL halfway.
// Every student.created event reaches a real HTTP receiver (signatures verified, deduped on
// the event id), the analytics projection counts each student once, and the dead
// instance's (consumer, partition) pairs are taken over within 10 s.
func TestEventsThreeInstancesSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs three instances; skipped with -short")
	}
	testenv.Serial(t, "times the takeover of a SIGKILLed instance's leases (5 s lease, 10 s bound, 6-7.5 s measured alone on a "+
		"loaded machine) while its three serve processes and eight writers fill both cores")
	for _, tr := range eventTransports {
		t.Run(tr.name, func(t *testing.T) {
			extra := tr.env(t)
			dbURL := testenv.NewPostgresURL(t)
			threeInstancesKill9(t, dbURL, extra)
		})
	}
}

func threeInstancesKill9(t *testing.T, dbURL string, extra []string) {
	const (
		total      = 3000
		workspaces = 8
		parts      = 4
		token      = "e2e-token-0123456789abcdef0123456789"
	)
	bin := testenv.Binary(t)
	base := append(os.Environ(),
		"CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL,
		"CREATORAPI_ADMIN_TOKEN="+token, "CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true",
		"CREATORAPI_WEBHOOK_RETRY_SCHEDULE=1s,2s,5s", "CREATORAPI_LOG_LEVEL=warn",
		fmt.Sprintf("CREATORAPI_EVENTS_PARTITIONS=%d", parts),
	)
	base = append(base, extra...)
	cli := binaryCLI(t, bin, base)
	rc := testenv.NewReceiver(t)
	ids := make([]string, workspaces)
	secrets := map[string]string{} // workspace -> signing secret
	for i := range ids {
		var ws struct{ ID string }
		mustJSON(t, cli("workspace", "create", "--name", fmt.Sprintf("Scale %d", i), "--owner-email", fmt.Sprintf("owner%d@example.com", i)), &ws)
		var whk struct{ SigningSecret string }
		mustJSON(t, cli("webhook", "create", "--workspace", ws.ID, "--url", rc.URL, "--events", "student.created"), &whk)
		ids[i], secrets[ws.ID] = ws.ID, whk.SigningSecret
	}

	start := func() *instance {
		in := &instance{admin: testenv.FreeAddr(t), logs: &bytes.Buffer{}}
		api := testenv.FreeAddr(t)
		in.cmd = exec.Command(bin, "serve")
		in.cmd.Env = append(append([]string{}, base...), "CREATORAPI_HTTP_ADDR="+api, "CREATORAPI_ADMIN_ADDR="+in.admin)
		in.cmd.Stderr = in.logs
		if err := in.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = in.cmd.Process.Kill(); _ = in.cmd.Wait() })
		waitHealthy(t, "http://"+api+"/healthz", in.logs)
		return in
	}
	insts := []*instance{start(), start(), start()}

	db, err := sqlx.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(2)
	t.Cleanup(func() { db.Close() })
	owners := func() map[string]string { // live pair -> owner
		t.Helper()
		var rows []struct{ Consumer, Owner string }
		if err := db.Select(&rows, `SELECT consumer || '/' || part AS consumer, owner FROM event_leases
			WHERE parts = $1 AND owner <> '' AND expires_at >= now()`, parts); err != nil {
			t.Fatalf("leases: %v", err)
		}
		out := map[string]string{}
		for _, r := range rows {
			out[r.Consumer] = r.Owner
		}
		return out
	}
	ownerOf := func(in *instance) string { return fmt.Sprintf(":%d:", in.cmd.Process.Pid) }
	// Wait until the work is spread fairly (rebalanced as instances joined): every pair of
	// the consumer groups held (the analytics projection and the order entitlements; the
	// webhook fan-out runs inline, in the publishing transaction), each instance holding 1
	// or 2 of each group's 4 partitions.
	const groups = 2
	spread := map[string]int{} // instance -> pairs held before the kill
	eventually(t, "the pairs spread evenly over three instances", func() bool {
		o := owners()
		clear(spread)
		perGroup := map[string]int{} // instance and group -> partitions held
		for pair, owner := range o {
			for i, in := range insts {
				if strings.Contains(owner, ownerOf(in)) {
					spread[fmt.Sprintf("instance %d", i+1)]++
					perGroup[fmt.Sprintf("%d %s", i, pair[:strings.LastIndex(pair, "/")])]++
				}
			}
		}
		if len(o) != groups*parts || len(spread) != 3 || len(perGroup) != 3*groups {
			return false
		}
		for _, n := range perGroup {
			if n != parts/3 && n != parts/3+1 {
				return false
			}
		}
		return true
	})
	began := time.Now()

	victim := insts[2]
	var posted atomic.Int64
	killed := make(chan struct{})
	var deadPairs []string
	var killedAt time.Time
	go func() {
		defer close(killed)
		for posted.Load() < total/2 {
			time.Sleep(time.Millisecond)
		}
		for pair, owner := range owners() {
			if strings.Contains(owner, ownerOf(victim)) {
				deadPairs = append(deadPairs, pair)
			}
		}
		killedAt = time.Now()
		_ = victim.cmd.Process.Kill() // SIGKILL: no draining, no lease given back
	}()
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 30 * time.Second}
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < total; i += 8 {
				in := insts[i%2] // the two that live
				ws := ids[i%workspaces]
				if !postStudent(t, client, in.admin, token, ws, fmt.Sprintf("s%04d@example.com", i)) {
					return
				}
				posted.Add(1)
			}
		}()
	}
	wg.Wait()
	<-killed
	if t.Failed() {
		return
	}
	if len(deadPairs) == 0 {
		t.Fatal("the killed instance held no pair: the test proves nothing")
	}

	// Takeover: each pair the dead instance held is held by a live one within 10 s.
	var takeover time.Duration
	for {
		o := owners()
		taken := 0
		for _, pair := range deadPairs {
			if owner, ok := o[pair]; ok && !strings.Contains(owner, ownerOf(victim)) {
				taken++
			}
		}
		if taken == len(deadPairs) {
			takeover = time.Since(killedAt)
			break
		}
		if time.Since(killedAt) > 15*time.Second {
			t.Fatalf("%d of the dead instance's %d pairs taken over after %s", taken, len(deadPairs), time.Since(killedAt))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if takeover > 10*time.Second {
		t.Fatalf("the dead instance's %d pairs were taken over after %s, want within 10 s\n%s\n%s", len(deadPairs), takeover, insts[0].logs, insts[1].logs)
	}

	// Every event reaches the receiver, signed with its workspace's secret.
	deadline := time.Now().Add(120 * time.Second)
	var got map[string]bool
	var requests int
	for {
		got, requests = eventIDs(t, rc)
		if len(got) == total {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events reached the receiver\n%s\n%s", len(got), total, insts[0].logs, insts[1].logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	delivered := time.Since(began)
	for _, r := range rc.Got() {
		var env struct {
			WorkspaceID string `json:"workspace_id"`
		}
		if err := json.Unmarshal(r.Body, &env); err != nil {
			t.Fatal(err)
		}
		if _, ok := testenv.VerifySVC(r, secrets[env.WorkspaceID]); !ok {
			t.Fatalf("a delivery of %s does not verify", env.WorkspaceID)
		}
	}

	// The projection counts each student once, per workspace.
	countStudents := func() int64 { return projectedStudents(t, db) }
	deadline = time.Now().Add(60 * time.Second)
	for n := countStudents(); n < total; n = countStudents() {
		if time.Now().After(deadline) {
			var positions []struct {
				Group string `db:"consumer_group"`
				Off   int64  `db:"offset_acked"`
			}
			_ = db.Select(&positions, `SELECT consumer_group, offset_acked FROM watermill_offsets_events ORDER BY 1`)
			t.Fatalf("the projection counts %d of %d students; positions %+v; leases %v\n%s\n%s", n, total, positions, owners(), insts[0].logs, insts[1].logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	expectEachStudentCountedOnce(t, db, total, workspaces)
	t.Logf("%d events, %d requests (%d duplicates), all delivered %s after the first request (%.0f events/s, loaded machine); pairs held before the kill %v; the dead instance's %d pairs were taken over in %s",
		total, requests, requests-total, delivered.Round(10*time.Millisecond), float64(total)/delivered.Seconds(), spread, len(deadPairs), takeover.Round(10*time.Millisecond))
}

// projectedStudents is how many students the analytics projection counted, in all.
func projectedStudents(t *testing.T, db *sqlx.DB) int64 {
	t.Helper()
	var sum int64
	if err := db.Get(&sum, `SELECT COALESCE(SUM(students_new), 0) FROM analytics_activity_daily`); err != nil {
		t.Fatalf("projection: %v", err)
	}
	return sum
}

// expectEachStudentCountedOnce waits for anything applied twice to show, then checks that
// the projection counts total students, total/workspaces in each workspace.
func expectEachStudentCountedOnce(t *testing.T, db *sqlx.DB, total, workspaces int64) {
	t.Helper()
	time.Sleep(2 * time.Second)
	if n := projectedStudents(t, db); n != total {
		t.Fatalf("the projection counts %d students, want %d", n, total)
	}
	var perWorkspace []struct {
		Workspace string `db:"workspace_id"`
		N         int64  `db:"n"`
	}
	if err := db.Select(&perWorkspace, `SELECT workspace_id, SUM(students_new) AS n FROM analytics_activity_daily GROUP BY workspace_id`); err != nil {
		t.Fatalf("projection: %v", err)
	}
	for _, w := range perWorkspace {
		if w.N != total/workspaces {
			t.Fatalf("workspace %s counts %d students, want %d", w.Workspace, w.N, total/workspaces)
		}
	}
}
