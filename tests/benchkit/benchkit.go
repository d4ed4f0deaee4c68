// Package benchkit holds what the benchmark programs share: the built binary, a throwaway
// PostgreSQL schema per run and latency percentiles.
package benchkit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"github.com/jmoiron/sqlx"
)

// FreshSchema creates an empty schema on the server at base and returns a URL that uses
// it, and a function that drops it.
func FreshSchema(base string) (string, func(), error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "bench_" + hex.EncodeToString(b[:])
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create schema: %w", err)
	}
	drop := func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return "", nil, err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), drop, nil
}

// Percentile returns the p-th percentile of ds (nearest rank), rounded to 10 µs.
func Percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(len(s)-1, (len(s)*p)/100)
	return s[i].Round(10 * time.Microsecond)
}
