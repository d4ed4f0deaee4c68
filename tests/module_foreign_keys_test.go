package tests

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/migrations"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// readSchema reads the migrated schema with the dialect's reader.
func readSchema(t *testing.T, db *sqldb.DB) map[string]*dbTable {
	t.Helper()
	read := readSQLiteSchema
	if db.Dialect == sqldb.Postgres {
		read = readPostgresSchema
	}
	s, err := read(context.Background(), db)
	if err != nil {
		t.Fatalf("read schema: %v", err)
	}
	return s
}

// A foreign key never crosses modules (docs/architecture.md, "Module layout"): a module's
// tables may only point at tables of the same module (ownership table), so that any subset
// of modules can run on other adapters. The keys inside a module stay.
func TestForeignKeysStayInsideModules(t *testing.T) {
	ownerOf := map[string]string{}
	for _, o := range readOwnership(t) {
		for _, tb := range o.tables {
			ownerOf[tb] = o.module
		}
	}
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		inside := 0
		for name, tb := range readSchema(t, testenv.MigratedDB(t, url)) {
			for key := range tb.foreign {
				_, target, _ := strings.Cut(key, " -> ")
				target, _, _ = strings.Cut(target, "(")
				if ownerOf[name] != ownerOf[target] {
					t.Errorf("%s (module %s): foreign key %s names module %s's table; check the reference through %s's published port instead",
						name, ownerOf[name], key, ownerOf[target], ownerOf[target])
					continue
				}
				inside++
			}
		}
		if inside < 10 {
			t.Fatalf("%d foreign keys inside modules; want the 10 of today (the reader is broken)", inside)
		}
	})
}

// schemaAt migrates a fresh database to version and reads its schema.
func schemaAt(t *testing.T, url string, version int64) map[string]*dbTable {
	t.Helper()
	db := openDB(t, url)
	if _, err := migrator(t, db).UpTo(context.Background(), version); err != nil {
		t.Fatalf("migrate to %d: %v", version, err)
	}
	return readSchema(t, db)
}

func openDB(t *testing.T, url string) *sqldb.DB {
	t.Helper()
	db, err := sqldb.Open(context.Background(), url, t.TempDir())
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// migrator is a goose provider over the dialect's migrations, as sqldb.Migrate uses them.
func migrator(t *testing.T, db *sqldb.DB) *goose.Provider {
	t.Helper()
	dialect := goose.DialectSQLite3
	if db.Dialect == sqldb.Postgres {
		dialect = goose.DialectPostgres
	}
	fsys, err := fs.Sub(migrations.FS, string(db.Dialect))
	if err != nil {
		t.Fatalf("migrations: %v", err)
	}
	p, err := goose.NewProvider(dialect, db.Writer.DB, fsys)
	if err != nil {
		t.Fatalf("goose: %v", err)
	}
	return p
}

// rebuiltTables are the tables migration 00017 changes (SQLite rebuilds each of them).
var rebuiltTables = []string{"api_keys", "courses", "catalog_versions", "students", "enrollments", "lesson_progress",
	"receipt_counters", "orders", "order_items", "order_entitlements", "live_sessions", "recordings", "certificates",
	"webhook_subscriptions", "workspace_members"}

func rowCounts(t *testing.T, db *sqldb.DB) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, table := range rebuiltTables {
		var n int
		if err := db.Writer.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM `+table); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		counts[table] = n
	}
	return counts
}

// Migration 00017 down and up again over a database the service wrote: each way the
// schema is exactly that of a fresh database at that version (the keys come back on Down,
// with every index and unique constraint), no row is lost, and on SQLite the restored
// keys hold (foreign_key_check; PostgreSQL validates them when it adds them).
func TestMigration00017RoundTripKeepsRows(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		env := testenv.Start(t, url)
		ws := env.CreateWorkspace(t, "Round trip")
		env.LearningKey(t, ws)
		course := env.CreatePublishedCourse(t, ws, "Go")
		student := env.CreateStudent(t, ws, "ada@example.com")
		env.PlaceOrder(t, ws, student, "eur", testenv.OrderItem{CourseID: course, Amount: 4900})
		env.CompleteCourse(t, ws, student, course)
		admin := env.Admin()
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/live-sessions", ws), map[string]string{"courseId": course, "title": "Q&A"}).
			Expect(t, http.StatusCreated)
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/certificates", ws), map[string]string{"studentId": student, "courseId": course}).
			Expect(t, http.StatusCreated)
		env.CreateWebhook(t, ws, "https://receiver.example.com/hooks", "recording.ready")
		env.Stop(t)

		db := openDB(t, url)
		before := rowCounts(t, db)
		for _, table := range []string{"api_keys", "courses", "students", "enrollments", "lesson_progress", "orders",
			"order_items", "order_entitlements", "live_sessions", "certificates", "webhook_subscriptions"} {
			if before[table] == 0 {
				t.Fatalf("no row in %s: the round trip would prove nothing", table)
			}
		}
		check := func(step string, want map[string]*dbTable) {
			t.Helper()
			for _, d := range compareSchemas(want, readSchema(t, db)) {
				if strings.Contains(d, "watermill_events_part_") {
					continue // the outbox index of the partition count, created by the service
				}
				t.Errorf("%s: schema differs from a fresh one: %s", step, d)
			}
			if got := rowCounts(t, db); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("%s: rows %v; want %v", step, got, before)
			}
		}
		ctx := context.Background()
		p := migrator(t, db)
		if _, err := p.DownTo(ctx, 16); err != nil {
			t.Fatalf("down to 16: %v", err)
		}
		check("down", schemaAt(t, sameKindURL(t, url), 16))
		if db.Dialect == sqldb.SQLite {
			var broken []struct{ Table string }
			if err := db.Writer.SelectContext(ctx, &broken, `SELECT "table" FROM pragma_foreign_key_check`); err != nil || len(broken) > 0 {
				t.Fatalf("foreign key check after down: %v, %v", broken, err)
			}
			var on bool
			if err := db.Writer.GetContext(ctx, &on, `PRAGMA foreign_keys`); err != nil || !on {
				t.Fatalf("foreign keys are off after the migration (%v): it must turn them back on", err)
			}
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatalf("up again: %v", err)
		}
		check("up", schemaAt(t, sameKindURL(t, url), math.MaxInt64)) // the newest schema: later migrations too
	})
}

// sameKindURL is a new, empty database of url's kind (not a migrated copy).
func sameKindURL(t *testing.T, url string) string {
	if strings.HasPrefix(url, "sqlite") {
		return testenv.NewEmptySQLiteURL(t)
	}
	return testenv.NewEmptyPostgresURL(t)
}
