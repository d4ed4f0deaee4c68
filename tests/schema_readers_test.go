package tests

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// readPostgresSchema reads the tables of the current schema from pg_catalog.
func readPostgresSchema(ctx context.Context, db *sqldb.DB) (map[string]*dbTable, error) {
	tables := map[string]*dbTable{}
	table := func(name string) *dbTable {
		if tables[name] == nil {
			tables[name] = newTable()
		}
		return tables[name]
	}
	var cols []struct {
		Table    string `db:"table_name"`
		Column   string `db:"column_name"`
		Type     string `db:"udt_name"`
		Nullable string `db:"is_nullable"`
	}
	if err := db.Writer.SelectContext(ctx, &cols, `
		SELECT table_name, column_name, udt_name, is_nullable
		FROM information_schema.columns
		WHERE table_schema = current_schema()`); err != nil {
		return nil, fmt.Errorf("columns: %w", err)
	}
	for _, c := range cols {
		if ownTable(c.Table) {
			table(c.Table).columns[c.Column] = dbColumn{class: classOf("postgres", c.Type), notNull: c.Nullable == "NO"}
		}
	}

	// Column lists in key order, for a constraint's own and its referenced columns.
	var cons []struct {
		Table   string         `db:"table_name"`
		Kind    string         `db:"kind"`
		Columns string         `db:"columns"`
		RefTab  sql.NullString `db:"ref_table"`
		RefCols sql.NullString `db:"ref_columns"`
	}
	if err := db.Writer.SelectContext(ctx, &cons, `
		SELECT cl.relname AS table_name, con.contype::text AS kind,
		       (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
		          FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
		          JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
		       fcl.relname AS ref_table,
		       (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
		          FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
		          JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns
		FROM pg_constraint con
		JOIN pg_class cl ON cl.oid = con.conrelid
		JOIN pg_namespace n ON n.oid = cl.relnamespace
		LEFT JOIN pg_class fcl ON fcl.oid = con.confrelid
		WHERE n.nspname = current_schema() AND con.contype IN ('p', 'u', 'f')`); err != nil {
		return nil, fmt.Errorf("constraints: %w", err)
	}
	for _, c := range cons {
		if !ownTable(c.Table) {
			continue
		}
		tb := table(c.Table)
		switch c.Kind {
		case "p":
			tb.primary = c.Columns
		case "u":
			tb.uniques[c.Columns] = true
		case "f":
			tb.foreign[c.Columns+" -> "+c.RefTab.String+"("+c.RefCols.String+")"] = true
		}
	}

	// Indexes made by CREATE INDEX: those that back no primary key or unique constraint.
	var idx []struct {
		Table   string `db:"table_name"`
		Name    string `db:"index_name"`
		Unique  bool   `db:"is_unique"`
		Partial bool   `db:"is_partial"`
		Columns string `db:"columns"`
	}
	if err := db.Writer.SelectContext(ctx, &idx, `
		SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
		       ix.indpred IS NOT NULL AS is_partial,
		       (SELECT string_agg(
		                 CASE WHEN ix.indkey[k.n - 1] = 0 THEN '<expr>'
		                      ELSE (SELECT a.attname FROM pg_attribute a
		                             WHERE a.attrelid = ix.indrelid AND a.attnum = ix.indkey[k.n - 1]) END
		                 || CASE WHEN ix.indoption[k.n - 1] & 1 = 1 THEN ' DESC' ELSE '' END,
		                 ',' ORDER BY k.n)
		          FROM generate_series(1, ix.indnkeyatts) AS k(n)) AS columns
		FROM pg_index ix
		JOIN pg_class i ON i.oid = ix.indexrelid
		JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = current_schema()
		  AND NOT EXISTS (SELECT 1 FROM pg_constraint c
		                   WHERE c.conindid = ix.indexrelid AND c.conrelid = ix.indrelid
		                     AND c.contype IN ('p', 'u'))`); err != nil {
		return nil, fmt.Errorf("indexes: %w", err)
	}
	for _, i := range idx {
		if ownTable(i.Table) {
			table(i.Table).indexes[i.Name] = dbIndex{columns: i.Columns, unique: i.Unique, partial: i.Partial}
		}
	}
	return tables, nil
}

// readSQLiteSchema reads the tables from sqlite_master and the table-valued pragmas.
func readSQLiteSchema(ctx context.Context, db *sqldb.DB) (map[string]*dbTable, error) {
	var names []string
	if err := db.Writer.SelectContext(ctx, &names, `SELECT name FROM sqlite_master WHERE type = 'table'`); err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	tables := map[string]*dbTable{}
	type fk struct{ table, from, refTable, to string }
	var fks []fk
	for _, name := range names {
		if !ownTable(name) {
			continue
		}
		tb := newTable()
		tables[name] = tb
		var cols []struct {
			Name    string `db:"name"`
			Type    string `db:"type"`
			NotNull bool   `db:"notnull"`
			PK      int    `db:"pk"`
		}
		if err := db.Writer.SelectContext(ctx, &cols, `SELECT name, type, "notnull", pk FROM pragma_table_info(?)`, name); err != nil {
			return nil, fmt.Errorf("columns of %s: %w", name, err)
		}
		pk := map[int]string{}
		for _, c := range cols {
			// SQLite keeps a legacy quirk: PRIMARY KEY does not imply NOT NULL (except the
			// rowid alias). No statement of ours inserts a NULL key, so a key column counts
			// as NOT NULL here, as it is on PostgreSQL.
			tb.columns[c.Name] = dbColumn{class: classOf("sqlite", c.Type), notNull: c.NotNull || c.PK > 0}
			if c.PK > 0 {
				pk[c.PK] = c.Name
			}
		}
		for i := 1; i <= len(pk); i++ {
			tb.primary = join(tb.primary, pk[i])
		}

		var list []struct {
			Name    string `db:"name"`
			Unique  bool   `db:"unique"`
			Origin  string `db:"origin"`
			Partial bool   `db:"partial"`
		}
		if err := db.Writer.SelectContext(ctx, &list, `SELECT name, "unique", origin, partial FROM pragma_index_list(?)`, name); err != nil {
			return nil, fmt.Errorf("indexes of %s: %w", name, err)
		}
		for _, ix := range list {
			var keys []struct {
				Name sql.NullString `db:"name"`
				Desc bool           `db:"desc"`
			}
			if err := db.Writer.SelectContext(ctx, &keys, `SELECT name, "desc" FROM pragma_index_xinfo(?) WHERE "key" = 1 ORDER BY seqno`, ix.Name); err != nil {
				return nil, fmt.Errorf("columns of index %s: %w", ix.Name, err)
			}
			var columns string
			for _, k := range keys {
				col := "<expr>"
				if k.Name.Valid {
					col = k.Name.String
				}
				if k.Desc {
					col += " DESC"
				}
				columns = join(columns, col)
			}
			switch ix.Origin {
			case "pk": // a non-rowid primary key; already read from table_info
			case "u":
				tb.uniques[columns] = true
			default:
				tb.indexes[ix.Name] = dbIndex{columns: columns, unique: ix.Unique, partial: ix.Partial}
			}
		}

		var refs []struct {
			ID    int            `db:"id"`
			Table string         `db:"table"`
			From  string         `db:"from"`
			To    sql.NullString `db:"to"`
		}
		if err := db.Writer.SelectContext(ctx, &refs, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name); err != nil {
			return nil, fmt.Errorf("foreign keys of %s: %w", name, err)
		}
		byID := map[int]*fk{}
		var order []int
		for _, r := range refs {
			f := byID[r.ID]
			if f == nil {
				f = &fk{table: name, refTable: r.Table}
				byID[r.ID] = f
				order = append(order, r.ID)
			}
			f.from = join(f.from, r.From)
			if r.To.Valid {
				f.to = join(f.to, r.To.String)
			}
		}
		for _, id := range order {
			fks = append(fks, *byID[id])
		}
	}
	// "REFERENCES t" without columns names t's primary key: resolve it once all are read.
	for _, f := range fks {
		to := f.to
		if to == "" && tables[f.refTable] != nil {
			to = tables[f.refTable].primary
		}
		tables[f.table].foreign[f.from+" -> "+f.refTable+"("+to+")"] = true
	}
	return tables, nil
}

func join(list, item string) string {
	if list == "" {
		return item
	}
	return strings.Join([]string{list, item}, ",")
}
