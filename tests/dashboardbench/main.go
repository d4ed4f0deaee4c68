// Command dashboardbench measures every dashboard page on SQLite with 1,000 keys and
// 10,000 audit rows in the workspace: sequential requests through the public fiber
// app, p50 and p99 per page, and their ratio to GET /healthz measured the same way in
// the same run. The goal is p99 under 20 ms for every page. Run by `make bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/keys"
	keycmd "github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces"
	wscmd "github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/benchkit"
)

const goal = 20 * time.Millisecond

var onlyPage string

func main() {
	requests := flag.Int("requests", 400, "requests measured per page")
	keyCount := flag.Int("keys", 1000, "keys in the workspace")
	auditRows := flag.Int("audit", 10_000, "audit rows in the workspace")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the measured requests here")
	only := flag.String("only", "", "measure only pages whose name contains this")
	flag.Parse()
	onlyPage = *only
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dashboardbench:", err)
			os.Exit(1)
		}
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if err := run(*requests, *keyCount, *auditRows); err != nil {
		fmt.Fprintln(os.Stderr, "dashboardbench:", err)
		os.Exit(1)
	}
}

func run(requests, keyCount, auditRows int) error {
	dir, err := os.MkdirTemp("", "dashboardbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg, err := compose.LoadConfig(func(string) string { return "" })
	if err != nil {
		return err
	}
	cfg.DataDir, cfg.DatabaseURL, cfg.LogLevel = dir, "sqlite://"+filepath.Join(dir, "bench.db"), "error"
	cfg.SecretKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	var (
		pub  compose.PublicApp
		db   *sqldb.DB
		ws   workspaces.Application
		ks   keys.Application
		ms   members.Application
		ids  platform.IDs
		tick platform.Clock
	)
	app := fx.New(compose.Modules(cfg), fx.Populate(&pub, &db, &ws, &ks, &ms, &ids, &tick), fx.NopLogger)
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx)

	started := time.Now()
	w, err := ws.Commands.CreateWorkspace.Handle(ctx, wscmd.CreateWorkspace{Name: "Bench Academy", OwnerEmail: "owner@example.com"})
	if err != nil {
		return err
	}
	if _, err := ws.Commands.CreateWorkspace.Handle(ctx, wscmd.CreateWorkspace{Name: "Second", OwnerEmail: "owner@example.com"}); err != nil {
		return err // a second workspace, so that the switcher page renders
	}
	// A workspace holds at most 50 active keys: each key made beyond the last
	// few revokes one made before it, so the page lists keyCount keys, most of them revoked.
	var keyID string
	var made []string
	for i := range keyCount {
		k, err := ks.Commands.CreateKey.Handle(ctx, keycmd.CreateKey{WorkspaceID: w.ID, Name: fmt.Sprintf("key %d", i), Scopes: []string{"read:courses", "read:orders"}})
		if err != nil {
			return err
		}
		keyID, made = k.ID, append(made, k.ID)
		if len(made) > activeKeysKept {
			if _, err := ks.Commands.RevokeKey.Handle(ctx, keycmd.RevokeKey{WorkspaceID: w.ID, KeyID: made[len(made)-1-activeKeysKept]}); err != nil {
				return err
			}
		}
	}
	for i := range 10 {
		if _, err := ms.Commands.Invite.Handle(ctx, membercmd.Invite{WorkspaceID: w.ID, Email: fmt.Sprintf("dev%d@example.com", i), Role: "developer"}); err != nil {
			return err
		}
	}
	if err := seedAudit(ctx, db, ids, tick, w.ID, auditRows-keyCount-10); err != nil {
		return err
	}
	link, err := ms.Commands.IssueLink.Handle(ctx, membercmd.IssueLink{WorkspaceID: w.ID})
	if err != nil {
		return err
	}
	u, _ := url.Parse(link.URL)
	session, err := ms.Commands.SignIn.Handle(ctx, membercmd.SignIn{Token: u.Query().Get("token")})
	if err != nil {
		return err
	}
	var rows int
	if err := db.Reader.Get(&rows, `SELECT COUNT(*) FROM audit_log WHERE workspace_id = ?`, w.ID); err != nil {
		return err
	}
	fmt.Printf("dashboard sqlite: workspace with %d keys, %d audit rows, 11 members (seeded in %v); %d sequential requests per page\n",
		keyCount, rows, time.Since(started).Round(time.Second), requests)

	cookie := "creatorapi_session=" + session.SessionToken
	pageTimer := benchkit.Pages{App: pub.App, Cookie: cookie, Requests: requests}
	measure := pageTimer.Measure
	_, base99, err := measure("/healthz", false)
	if err != nil {
		return err
	}
	base := "/dashboard/w/" + w.ID
	var before string
	if err := db.Reader.Get(&before, `SELECT id FROM audit_log WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 5000`, w.ID); err != nil {
		return err
	}
	var at time.Time
	if err := db.Reader.Get(&at, `SELECT created_at FROM audit_log WHERE id = ?`, before); err != nil {
		return err
	}
	pages := []struct {
		name, path string
		cookie     bool
	}{
		{"sign-in", "/dashboard/sign-in", false},
		{"sign-in link", "/dashboard/sign-in/link?token=abc", false},
		{"workspaces", "/dashboard/", true},
		{"overview", base + "/", true},
		{"API keys (1,000)", base + "/keys", true},
		{"revoke confirm", base + "/keys/" + keyID + "/revoke", true},
		{"webhooks", base + "/webhooks", true},
		{"members", base + "/members", true},
		{"remove confirm", base + "/members/remove?email=dev3@example.com", true},
		{"audit log", base + "/audit", true},
		{"audit log, row 5,000", base + fmt.Sprintf("/audit?before=%d.%s", at.UnixMicro(), before), true},
	}
	fmt.Printf("  %-22s p50 %-9v p99 %-9v (baseline GET /healthz through the same app)\n", "healthz", "", base99)
	worst, failed := time.Duration(0), []string{}
	for _, p := range pages {
		if onlyPage != "" && !strings.Contains(p.name, onlyPage) {
			continue
		}
		p50, p99, err := measure(p.path, p.cookie)
		if err != nil {
			return err
		}
		verdict := "ok"
		if p99 >= goal {
			verdict = "OVER 20 ms"
			failed = append(failed, p.name)
		}
		worst = max(worst, p99)
		fmt.Printf("  %-22s p50 %-9v p99 %-9v %6.1fx baseline p99   %s\n", p.name, p50, p99, float64(p99)/float64(base99), verdict)
	}
	if len(failed) > 0 {
		return fmt.Errorf("p99 over %v on: %s", goal, strings.Join(failed, ", "))
	}
	fmt.Printf("dashboard sqlite: every page p99 under %v (worst %v)\n", goal, worst)
	return nil
}

// seedAudit inserts n older audit rows in one transaction, spread over the past year.
func seedAudit(ctx context.Context, db *sqldb.DB, ids platform.IDs, clock platform.Clock, ws string, n int) error {
	now := clock.Now()
	return db.WithinTx(ctx, func(ctx context.Context) error {
		stmt := db.Rebind(`INSERT INTO audit_log (id, workspace_id, actor, address, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		for i := range n {
			at := now.Add(-time.Duration(n-i) * 50 * time.Minute)
			if _, err := db.Write(ctx).ExecContext(ctx, stmt, ids.New("aud"), ws, "owner@example.com", "203.0.113.7",
				"key.created", "key_x", fmt.Sprintf("%q with scopes read:courses", fmt.Sprint("seeded ", i)), at); err != nil {
				return err
			}
		}
		return nil
	})
}

// activeKeysKept is how many of the bench's keys stay active (a workspace's limit is 50).
const activeKeysKept = 20
