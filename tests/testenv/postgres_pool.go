package testenv

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"
)

// A copy of the template and its drop cost PostgreSQL about 175 ms of CPU (and the drop
// waits for a checkpoint), against about 20 ms to empty the tables of a database whose
// test has ended. So, in a package run by Main, a finished test's database is emptied and
// handed to the next test instead of dropped, unless the test changed its schema or grew
// it (a load test's dead rows would slow the next user: autovacuum may be off). Main
// drops what is left at the end. Elsewhere every database is dropped after its test.

// pooledGrowthLimit is how much larger than the template a database may be and still be
// reused.
const pooledGrowthLimit = 16 << 20

var postgresPool struct {
	sync.Mutex
	enabled     bool
	free        []string // emptied databases, ready for a test
	all         []string // every database the pool made: dropped by drainPostgresPool
	base        string   // the server's URL
	fingerprint string   // the template's schema
	size        int64    // the template's size in bytes
}

// enablePostgresPool makes finished tests' databases go back to the pool.
func enablePostgresPool() {
	postgresPool.Lock()
	defer postgresPool.Unlock()
	postgresPool.enabled = true
}

// takePooledDatabase returns an emptied database, or "" when none is free.
func takePooledDatabase() string {
	postgresPool.Lock()
	defer postgresPool.Unlock()
	n := len(postgresPool.free)
	if n == 0 {
		return ""
	}
	name := postgresPool.free[n-1]
	postgresPool.free = postgresPool.free[:n-1]
	return name
}

// pooling tells whether databases go back to the pool; when so, it records name as the
// pool's to drop at the end.
func pooling(base, name string) bool {
	postgresPool.Lock()
	defer postgresPool.Unlock()
	if !postgresPool.enabled {
		return false
	}
	postgresPool.base = base
	if !slices.Contains(postgresPool.all, name) {
		postgresPool.all = append(postgresPool.all, name)
	}
	return true
}

// releaseDatabase empties name and puts it back in the pool, or drops it when it cannot
// be reused.
func releaseDatabase(ctx context.Context, admin *sqlx.DB, base, template, name string) {
	if err := emptyDatabase(ctx, admin, base, template, name); err != nil {
		dropDatabase(ctx, admin, name)
		postgresPool.Lock()
		postgresPool.all = slices.DeleteFunc(postgresPool.all, func(n string) bool { return n == name })
		postgresPool.Unlock()
		return
	}
	postgresPool.Lock()
	postgresPool.free = append(postgresPool.free, name)
	postgresPool.Unlock()
}

// emptyDatabase closes what still connects to name, checks that its schema is still the
// template's and its size near it, and deletes every row but the migrations' versions.
func emptyDatabase(ctx context.Context, admin *sqlx.DB, base, template, name string) error {
	if _, err := admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
		return fmt.Errorf("close connections: %w", err)
	}
	want, wantSize, err := templateShape(ctx, base, template)
	if err != nil {
		return err
	}
	db, err := sqlx.Open("pgx", databaseURL(base, name))
	if err != nil {
		return fmt.Errorf("open %s: %w", name, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection of ours, for the check at the end
	got, size, err := schemaShape(ctx, db)
	switch {
	case err != nil:
		return err
	case got != want:
		return fmt.Errorf("%s: its schema changed", name)
	case size > wantSize+pooledGrowthLimit:
		return fmt.Errorf("%s: grew to %d bytes", name, size)
	}
	// A test that analysed or vacuumed left planner statistics a fresh copy has not.
	var maintained bool
	if err := db.GetContext(ctx, &maintained, `SELECT EXISTS (SELECT 1 FROM pg_stat_user_tables WHERE analyze_count > 0 OR vacuum_count > 0)`); err != nil {
		return fmt.Errorf("%s: statistics: %w", name, err)
	} else if maintained {
		return fmt.Errorf("%s: analysed or vacuumed", name)
	}
	var tables []string
	if err := db.SelectContext(ctx, &tables, `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) FROM pg_tables
		WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> 'goose_db_version'`); err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	// One transaction, the foreign keys' triggers off (every row goes), the sequences
	// back to their start so that a test sees what a fresh copy would give it (but the
	// versions' own, whose rows stay).
	var sql strings.Builder
	sql.WriteString("BEGIN; SET LOCAL session_replication_role = replica;")
	for _, t := range tables {
		sql.WriteString(" DELETE FROM " + t + ";")
	}
	sql.WriteString(` SELECT setval(seqrelid, seqstart, false) FROM pg_sequence
		WHERE seqrelid <> pg_get_serial_sequence('goose_db_version', 'id')::regclass; COMMIT;`)
	if _, err := db.ExecContext(ctx, sql.String()); err != nil {
		return fmt.Errorf("empty %s: %w", name, err)
	}
	// Something that outlived its test and connected again (a process its cleanup missed)
	// would write into the next test's data: such a database is dropped instead.
	var others int
	if err := admin.GetContext(ctx, &others, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
		return fmt.Errorf("connections to %s: %w", name, err)
	} else if others > 1 { // the emptying connection, until db closes
		return fmt.Errorf("%s: connected again while emptied", name)
	}
	return nil
}

// templateShape is the template's schema fingerprint and size, asked once.
func templateShape(ctx context.Context, base, template string) (string, int64, error) {
	postgresPool.Lock()
	defer postgresPool.Unlock()
	if postgresPool.fingerprint != "" {
		return postgresPool.fingerprint, postgresPool.size, nil
	}
	db, err := sqlx.Open("pgx", databaseURL(base, template))
	if err != nil {
		return "", 0, fmt.Errorf("open the template: %w", err)
	}
	defer db.Close()
	f, size, err := schemaShape(ctx, db)
	if err != nil {
		return "", 0, err
	}
	postgresPool.fingerprint, postgresPool.size = f, size
	return f, size, nil
}

// schemaShape fingerprints what a test could change in a schema (relations and their
// columns, functions, triggers, the migrations' versions) and gives the database's size.
func schemaShape(ctx context.Context, db *sqlx.DB) (string, int64, error) {
	var shape struct {
		Fingerprint string `db:"fingerprint"`
		Size        int64  `db:"size"`
	}
	err := db.GetContext(ctx, &shape, `SELECT md5(string_agg(x, ',' ORDER BY x)) AS fingerprint, pg_database_size(current_database()) AS size FROM (
		SELECT n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' ||
			(SELECT string_agg(a.attname || ' ' || a.atttypid::regtype::text || ' ' || a.attnotnull::text, ';' ORDER BY a.attnum)
			 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS x
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
		UNION ALL SELECT 'function ' || p.oid::regprocedure::text || md5(p.prosrc) FROM pg_proc p
			JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
		UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
		UNION ALL SELECT 'versions ' || string_agg(version_id::text, ',' ORDER BY version_id) FROM goose_db_version WHERE is_applied
	) s`)
	if err != nil {
		return "", 0, fmt.Errorf("schema fingerprint: %w", err)
	}
	return shape.Fingerprint, shape.Size, nil
}

// drainPostgresPool drops every database the pool made (Main, at the end of the run).
func drainPostgresPool() {
	postgresPool.Lock()
	defer postgresPool.Unlock()
	if len(postgresPool.all) == 0 {
		return
	}
	admin, err := sqlx.Open("pgx", postgresPool.base)
	if err != nil {
		return
	}
	defer admin.Close()
	for _, name := range postgresPool.all {
		dropDatabase(context.Background(), admin, name)
	}
	postgresPool.all, postgresPool.free = nil, nil
}
