package tests

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The migrations are kept per dialect. This test migrates a fresh SQLite file and a fresh
// PostgreSQL schema, reads back what the databases hold (pg_catalog; sqlite_master and the
// pragmas), never the SQL files, and compares them. Any migration added to one dialect and
// not the other, or written differently, shows up as a difference and fails the test.

// schemaDriftAllowed lists the differences that are known and accepted, each with why.
// An entry that no longer matches a difference fails the test too, so the list stays true.
var schemaDriftAllowed = map[string]string{
	// The outbox tables follow each engine's watermill schema adapter, not our own design:
	// watermill-sql's PostgreSQL layout orders by (transaction_id, offset) to survive
	// concurrent writers; adapters/eventbus/schema's SQLite layout relies on SQLite's one writer.
	"watermill_events.transaction_id: only in postgres":                              "watermill-sql's PostgreSQL layout",
	"watermill_events: primary key postgres=(transaction_id,offset) sqlite=(offset)": "watermill-sql's PostgreSQL layout",
	"watermill_events.created_at: type postgres=timestamp sqlite=text":               "the SQLite adapter stamps RFC 3339 text",
	"watermill_events.payload: type postgres=json sqlite=bytes":                      "watermill-sql's PostgreSQL layout",
	"watermill_events.metadata: type postgres=json sqlite=text":                      "watermill-sql's PostgreSQL layout",
	"watermill_offsets_events.last_processed_transaction_id: only in postgres":       "watermill-sql's PostgreSQL layout",
	"watermill_offsets_events.offset_acked: nullable postgres=true sqlite=false":     "the SQLite adapter starts offsets at 0",
	// PostgreSQL's per-row checks share-locked the parent row at every delivery and attempt
	// written; what they guarded holds by construction (migrations/postgres/00031).
	"webhook_attempts: foreign key delivery_id -> webhook_deliveries(id) only in sqlite":                                                                                                               "PostgreSQL: retention deletes a delivery's attempts with it (prune.go)",
	"webhook_deliveries: foreign key subscription_id -> webhook_subscriptions(id) only in sqlite":                                                                                                      "PostgreSQL: deliveries are written for endpoints the fan-out reads; none is ever deleted",
	"watermill_events: index watermill_events_feed postgres={columns:partition_key,transaction_id,offset unique:false partial:false} sqlite={columns:partition_key,offset unique:false partial:false}": "the feed reads in each layout's stream order",
}

// classOf maps a column type to a class both engines share. SQLite has type affinity,
// so its declared type names are what the migration meant.
func classOf(dialect, typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "bool"):
		return "boolean"
	case strings.Contains(t, "timestamp"), strings.Contains(t, "datetime"):
		return "timestamp"
	case t == "date":
		return "date"
	case strings.Contains(t, "int"), strings.Contains(t, "serial"):
		return "integer"
	case strings.Contains(t, "char"), strings.Contains(t, "text"), strings.Contains(t, "clob"):
		return "text"
	case strings.Contains(t, "bytea"), strings.Contains(t, "blob"):
		return "bytes"
	case strings.Contains(t, "json"):
		return "json"
	case strings.Contains(t, "numeric"), strings.Contains(t, "decimal"), strings.Contains(t, "real"),
		strings.Contains(t, "double"), strings.Contains(t, "float"):
		return "numeric"
	case t == "xid8":
		return "xid8"
	}
	return dialect + ":" + t
}

type dbColumn struct {
	class   string
	notNull bool
}

type dbIndex struct {
	columns string // "a,b DESC" or "<expr>" for an expression
	unique  bool
	partial bool
}

type dbTable struct {
	columns map[string]dbColumn
	primary string             // "a,b"
	uniques map[string]bool    // column lists of UNIQUE constraints
	foreign map[string]bool    // "a,b -> t(x,y)"
	indexes map[string]dbIndex // indexes created by CREATE INDEX, by name
}

func newTable() *dbTable {
	return &dbTable{columns: map[string]dbColumn{}, uniques: map[string]bool{}, foreign: map[string]bool{}, indexes: map[string]dbIndex{}}
}

// ownTable reports whether a table is part of our schema (not the migration tool's or the engine's).
func ownTable(name string) bool {
	return name != "goose_db_version" && !strings.HasPrefix(name, "sqlite_")
}

func TestSchemaParity(t *testing.T) {
	testenv.Parallel(t)
	ctx := context.Background()
	migrated := func(url string) *sqldb.DB {
		db, err := sqldb.Open(ctx, url, t.TempDir())
		if err != nil {
			t.Fatalf("open %s: %v", url, err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		return db
	}
	sqliteDB := migrated(testenv.NewSQLiteURL(t))
	postgresDB := migrated(testenv.NewEmptyPostgresURL(t))

	lite, err := readSQLiteSchema(ctx, sqliteDB)
	if err != nil {
		t.Fatalf("read sqlite schema: %v", err)
	}
	pg, err := readPostgresSchema(ctx, postgresDB)
	if err != nil {
		t.Fatalf("read postgres schema: %v", err)
	}
	if len(lite) < 10 || len(pg) < 10 {
		t.Fatalf("read %d sqlite and %d postgres tables: the reader is broken", len(lite), len(pg))
	}
	seen := map[string]bool{}
	for _, d := range compareSchemas(pg, lite) {
		if _, ok := schemaDriftAllowed[d]; ok {
			seen[d] = true
			continue
		}
		t.Errorf("schema drift: %s", d)
	}
	for d := range schemaDriftAllowed {
		if !seen[d] {
			t.Errorf("allowed drift no longer occurs, remove it from schemaDriftAllowed: %s", d)
		}
	}
}

// The comparison itself must notice each kind of drift.
func TestSchemaParityCatchesDrift(t *testing.T) {
	base := func() map[string]*dbTable {
		tb := newTable()
		tb.columns["id"] = dbColumn{"text", true}
		tb.columns["n"] = dbColumn{"integer", false}
		tb.primary = "id"
		tb.uniques["n"] = true
		tb.foreign["n -> other(id)"] = true
		tb.indexes["t_by_n"] = dbIndex{columns: "n DESC"}
		return map[string]*dbTable{"t": tb}
	}
	for name, change := range map[string]func(map[string]*dbTable){
		"table":    func(s map[string]*dbTable) { s["u"] = newTable() },
		"column":   func(s map[string]*dbTable) { s["t"].columns["x"] = dbColumn{"text", true} },
		"type":     func(s map[string]*dbTable) { s["t"].columns["n"] = dbColumn{"text", false} },
		"nullable": func(s map[string]*dbTable) { s["t"].columns["n"] = dbColumn{"integer", true} },
		"primary":  func(s map[string]*dbTable) { s["t"].primary = "id,n" },
		"unique":   func(s map[string]*dbTable) { delete(s["t"].uniques, "n") },
		"foreign":  func(s map[string]*dbTable) { s["t"].foreign = map[string]bool{} },
		"index":    func(s map[string]*dbTable) { s["t"].indexes["t_by_id"] = dbIndex{columns: "id"} },
		"index columns": func(s map[string]*dbTable) {
			s["t"].indexes["t_by_n"] = dbIndex{columns: "n"}
		},
		"index unique": func(s map[string]*dbTable) {
			s["t"].indexes["t_by_n"] = dbIndex{columns: "n DESC", unique: true}
		},
	} {
		changed := base()
		change(changed)
		if d := compareSchemas(base(), changed); len(d) != 1 {
			t.Errorf("%s: got differences %q, want exactly one", name, d)
		}
	}
	if d := compareSchemas(base(), base()); len(d) != 0 {
		t.Errorf("identical schemas differ: %q", d)
	}
}

// compareSchemas lists every difference between the two schemas, one line each, sorted.
func compareSchemas(pg, lite map[string]*dbTable) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	for _, name := range unionKeys(pg, lite) {
		p, l := pg[name], lite[name]
		if p == nil || l == nil {
			add("%s: only in %s", name, which(p != nil))
			continue
		}
		for _, c := range unionKeys(p.columns, l.columns) {
			pc, pok := p.columns[c]
			lc, lok := l.columns[c]
			switch {
			case !pok || !lok:
				add("%s.%s: only in %s", name, c, which(pok))
			default:
				if pc.class != lc.class {
					add("%s.%s: type postgres=%s sqlite=%s", name, c, pc.class, lc.class)
				}
				if pc.notNull != lc.notNull {
					add("%s.%s: nullable postgres=%v sqlite=%v", name, c, !pc.notNull, !lc.notNull)
				}
			}
		}
		if p.primary != l.primary {
			add("%s: primary key postgres=(%s) sqlite=(%s)", name, p.primary, l.primary)
		}
		for _, u := range unionKeys(p.uniques, l.uniques) {
			if p.uniques[u] != l.uniques[u] {
				add("%s: unique (%s) only in %s", name, u, which(p.uniques[u]))
			}
		}
		for _, f := range unionKeys(p.foreign, l.foreign) {
			if p.foreign[f] != l.foreign[f] {
				add("%s: foreign key %s only in %s", name, f, which(p.foreign[f]))
			}
		}
		for _, i := range unionKeys(p.indexes, l.indexes) {
			pi, pok := p.indexes[i]
			li, lok := l.indexes[i]
			switch {
			case !pok || !lok:
				add("%s: index %s only in %s", name, i, which(pok))
			case pi != li:
				add("%s: index %s postgres=%+v sqlite=%+v", name, i, pi, li)
			}
		}
	}
	return out
}

func which(inPostgres bool) string {
	if inPostgres {
		return "postgres"
	}
	return "sqlite"
}

func unionKeys[V any](a, b map[string]V) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
