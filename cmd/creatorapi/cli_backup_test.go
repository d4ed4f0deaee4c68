package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// cliOn is a CLI whose environment is env (stdout and stderr kept).
func cliOn(env map[string]string) (*CLI, *bytes.Buffer, *bytes.Buffer) {
	var out, errs bytes.Buffer
	env["CREATORAPI_HTTP_ADDR"], env["CREATORAPI_ADMIN_ADDR"], env["CREATORAPI_LOG_LEVEL"] = "127.0.0.1:0", "127.0.0.1:0", "error"
	return &CLI{stdout: &out, stderr: &errs, getenv: func(k string) string { return env[k] }}, &out, &errs
}

// backupUnderLoad starts a service on databaseURL with a key and a webhook, runs 8 writers
// against it, and takes a backup with the CLI while they write. It returns the service,
// the backup file, the emails acknowledged before the backup began, the key and the
// webhook's receiver and secret.
type backupFixture struct {
	src          *testenv.WebhookEnv
	file         string
	ackedBefore  []string
	key, ws      string
	receiver     *testenv.Receiver
	hookSecret   string
	took         time.Duration
	totalWritten int
}

func backupUnderLoad(t *testing.T, databaseURL string) backupFixture {
	f := backupFixture{}
	f.src = testenv.StartWebhooks(t, databaseURL, nil)
	f.ws = f.src.CreateWorkspace(t, "Academy")
	_, f.key = f.src.CreateKeyWithQuota(t, f.ws, 1_000_000, 1_000_000, "read:students", "write:students")
	f.receiver = testenv.NewReceiver(t)
	_, f.hookSecret = f.src.CreateWebhook(t, f.ws, f.receiver.URL, "student.created")

	type ack struct {
		email string
		at    time.Time
	}
	var mu sync.Mutex
	var acks []ack
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			api := f.src.API(f.key)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				email := fmt.Sprintf("writer%d-%d@example.com", w, i)
				r := api.Post(t, "/api/v1/students", map[string]any{"email": email})
				if r.Status != http.StatusCreated {
					t.Errorf("write %s: %d %s", email, r.Status, r.Body)
					return
				}
				mu.Lock()
				acks = append(acks, ack{email, time.Now()})
				mu.Unlock()
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	f.file = filepath.Join(t.TempDir(), "creatorapi.backup")
	cli, _, errs := cliOn(map[string]string{
		"CREATORAPI_DATA_DIR": f.src.Config.DataDir, "CREATORAPI_DATABASE_URL": f.src.Config.DatabaseURL,
		"CREATORAPI_SECRET_KEY": f.src.Config.SecretKey, "CREATORAPI_ADMIN_TOKEN": testenv.AdminToken,
	})
	began := time.Now()
	code := cli.run([]string{"backup", "--out", f.file})
	f.took = time.Since(began)
	time.Sleep(200 * time.Millisecond) // the writers carry on after the backup too
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("backup exit code %d: %s", code, errs)
	}
	for _, a := range acks {
		if a.at.Before(began) {
			f.ackedBefore = append(f.ackedBefore, a.email)
		}
	}
	f.totalWritten = len(acks)
	if len(f.ackedBefore) == 0 || len(acks) == len(f.ackedBefore) {
		t.Fatalf("%d writes acknowledged before the backup, %d in all: the backup did not run under load", len(f.ackedBefore), len(acks))
	}
	return f
}

// A backup taken while 8 writers write restores into an empty data folder: every student
// acknowledged before the backup began is there, the old API key still works, and the
// webhook is signed with the old signing secret (the master key travelled in the file).
func TestBackupRestoreRoundTripUnderLoad(t *testing.T) {
	testenv.EachDatabase(t, roundTrip)
}

func roundTrip(t *testing.T, databaseURL string) {
	f := backupUnderLoad(t, databaseURL)
	info, err := os.Stat(f.file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("backup file mode %v, want 0600", info.Mode().Perm())
	}
	t.Logf("backup of %d students (%d acknowledged before it began) took %s, %d bytes",
		f.totalWritten, len(f.ackedBefore), f.took.Round(time.Millisecond), info.Size())

	dst := t.TempDir()
	targetURL := restoreTarget(t, databaseURL, dst)
	cli, out, errs := cliOn(map[string]string{"CREATORAPI_DATA_DIR": dst, "CREATORAPI_DATABASE_URL": targetURL})
	if code := cli.run([]string{"restore", "--in", f.file}); code != 0 {
		t.Fatalf("restore exit code %d: %s", code, errs)
	}
	if !strings.Contains(out.String(), `"format": "creatorapi-backup/1"`) {
		t.Errorf("restore printed %s, want the manifest", out)
	}
	if key, err := os.Stat(filepath.Join(dst, "secret.key")); err != nil || key.Mode().Perm() != 0o600 {
		t.Fatalf("restored key file: %v %v", key, err)
	}
	// A second restore into the same folder is refused: the database there may be in use.
	again, _, againErrs := cliOn(map[string]string{"CREATORAPI_DATA_DIR": t.TempDir(), "CREATORAPI_DATABASE_URL": targetURL})
	if code := again.run([]string{"restore", "--in", f.file}); code == 0 ||
		!(strings.Contains(againErrs.String(), "exists") || strings.Contains(againErrs.String(), "has ")) {
		t.Fatalf("restore over a database: exit %d, %s", code, againErrs)
	}

	restored := testenv.StartWebhooks(t, targetURL, func(c *compose.Config) {
		c.DataDir, c.SecretKey = dst, "" // the key comes from the restored file
	})
	var emails []string
	if err := restored.DB.Reader.Select(&emails, `SELECT email FROM students`); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range emails {
		have[e] = true
	}
	for _, e := range f.ackedBefore {
		if !have[e] {
			t.Errorf("student %s, acknowledged before the backup began, is missing after restore", e)
		}
	}
	t.Logf("restored %d students; %d were acknowledged before the backup began", len(emails), len(f.ackedBefore))

	api := restored.API(f.key)
	api.Get(t, "/api/v1/students?limit=1").Expect(t, http.StatusOK)
	api.Post(t, "/api/v1/students", map[string]any{"email": "after-restore@example.com"}).Expect(t, http.StatusCreated)
	deadline := time.Now().Add(20 * time.Second)
	for {
		restored.RunDue(t)
		for _, r := range f.receiver.Got() {
			if bytes.Contains(r.Body, []byte("after-restore@example.com")) {
				if _, ok := testenv.VerifySVC(r, f.hookSecret); !ok {
					t.Fatalf("the restored service's webhook does not verify with the old signing secret")
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no webhook for the student created after restore")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// restoreTarget is an empty database for a restore of a backup of databaseURL: a new
// SQLite file in dataDir, or a new PostgreSQL database (dropped at cleanup) with the
// source's search_path, since the dump recreates that schema.
func restoreTarget(t *testing.T, databaseURL, dataDir string) string {
	if strings.HasPrefix(databaseURL, "sqlite://") {
		return "sqlite://" + filepath.Join(dataDir, "creatorapi.db")
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("pgx", databaseURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := "restore_" + strings.TrimPrefix(u.Query().Get("search_path"), "t_")
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", databaseURL); err == nil {
			_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			db.Close()
		}
	})
	u.Path = "/" + name
	return u.String()
}
