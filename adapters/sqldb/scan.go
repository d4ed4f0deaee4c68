package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/jmoiron/sqlx/reflectx"
)

// columnMapper names an untagged field by its column (WorkspaceID: workspace_id,
// CSRFToken: csrf_token), so that rows scan straight into domain types and views and
// their field lists are written once; a db tag still wins.
func columnMapper() *reflectx.Mapper { return reflectx.NewMapperFunc("db", snakeCase) }

func snakeCase(name string) string {
	runes := []rune(name)
	var b strings.Builder
	for i, r := range runes {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(runes[i-1])
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if prevLower || (nextLower && unicode.IsUpper(runes[i-1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// One reads the row query selects into dest, its instants in UTC; missing is the
// error when there is none (a kernel.NotFound, usually).
func One(ctx context.Context, q Querier, dest any, missing error, query string, args ...any) error {
	err := q.GetContext(ctx, dest, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return missing
	}
	if err != nil {
		return fmt.Errorf("%s: %w", summary(query), err)
	}
	InUTC(dest)
	return nil
}

// All reads the rows query selects, their instants in UTC (an empty slice, not nil,
// when there are none).
func All[T any](ctx context.Context, q Querier, query string, args ...any) ([]T, error) {
	out := []T{}
	if err := q.SelectContext(ctx, &out, query, args...); err != nil {
		return nil, fmt.Errorf("%s: %w", summary(query), err)
	}
	for i := range out {
		InUTC(&out[i])
	}
	return out, nil
}

// Exists tells whether query selects a row.
func Exists(ctx context.Context, q Querier, query string, args ...any) (bool, error) {
	var one int
	return Found(One(ctx, q, &one, sql.ErrNoRows, query, args...))
}

// Found reads the error of a single-row read or scan: no row is found == false, not
// an error.
func Found(err error) (bool, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// Exec runs stmt on the writer of ctx; what names it in the error.
func (db *DB) Exec(ctx context.Context, what, stmt string, args ...any) error {
	if _, err := db.Write(ctx).ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// summary names a statement in errors: its text up to the conditions.
func summary(query string) string {
	s := strings.Join(strings.Fields(query), " ")
	if i := strings.Index(s, " WHERE "); i > 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

var (
	timeType    = reflect.TypeOf(time.Time{})
	timePtrType = reflect.TypeOf(&time.Time{})
)

// InUTC turns the instants dest points to (a time, or a struct's time fields, embedded
// and nested ones too) to UTC: the engines hand back local or fixed-zone times, the
// domain and the API use UTC.
func InUTC(dest any) {
	if v := reflect.ValueOf(dest); v.Kind() == reflect.Pointer && !v.IsNil() {
		inUTC(v.Elem())
	}
}

func inUTC(v reflect.Value) {
	switch {
	case !v.CanSet() && (v.Type() == timeType || v.Type() == timePtrType):
		return
	case v.Type() == timeType:
		v.Set(reflect.ValueOf(v.Interface().(time.Time).UTC()))
	case v.Type() == timePtrType:
		if p := v.Interface().(*time.Time); p != nil {
			u := p.UTC()
			v.Set(reflect.ValueOf(&u))
		}
	case v.Kind() == reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			// Embedded structs are walked whatever their name, as sqlx fills them.
			if f := t.Field(i); f.IsExported() || f.Anonymous {
				inUTC(v.Field(i))
			}
		}
	}
}

// Prepared is a repository's database with its statements, rebound for the dialect
// once at construction (see Prepare). Repositories embed it.
type Prepared[S any] struct {
	DB *DB
	Q  S
}

// Prepare rebinds each string field of statements (written with '?' placeholders) for
// db's dialect.
func Prepare[S any](db *DB, statements S) Prepared[S] {
	v := reflect.ValueOf(&statements).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String && f.CanSet() {
			f.SetString(db.Rebind(f.String()))
		}
	}
	return Prepared[S]{DB: db, Q: statements}
}
