package web

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"testing"
)

// sqlStateError stands for a driver error carrying a SQLSTATE (pgconn.PgError).
type sqlStateError string

func (e sqlStateError) Error() string    { return "server error " + string(e) }
func (e sqlStateError) SQLState() string { return string(e) }

// safeToRetry stands for pgx's "conn closed": the statement was never sent.
type safeToRetry struct{}

func (safeToRetry) Error() string     { return "conn closed" }
func (safeToRetry) SafeToRetry() bool { return true }

// A fault gets Retry-After only when a store did not answer; a bug's 500 does not invite a
// retry on a schedule.
func TestInternalErrorSaysRetryAfterOnlyWhenAStoreIsAway(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, c := range []struct {
		err  error
		away bool
	}{
		{fmt.Errorf("count request: %w", refused), true},
		{fmt.Errorf("commit: %w", io.ErrUnexpectedEOF), true},
		{fmt.Errorf("query: %w", driver.ErrBadConn), true},
		{fmt.Errorf("query: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("connect: %w", sqlStateError("57P03")), true}, // the database system is starting up
		{fmt.Errorf("commit: %w", sqlStateError("57P01")), true},  // terminating connection due to administrator command
		{fmt.Errorf("connect: %w", sqlStateError("08006")), true},
		{fmt.Errorf("commit: %w", safeToRetry{}), true},
		{fmt.Errorf("insert: %w", sqlStateError("23502")), false}, // not null violation: a bug
		{errors.New("nil map"), false},
	} {
		p, ok := ProblemOf(c.err)
		if ok || p.Status != http.StatusInternalServerError || p.Code != CodeInternal {
			t.Fatalf("%v: problem %+v, shown %v; want a hidden internal_error", c.err, p, ok)
		}
		if got := p.retryAfterHeader == UnavailableRetryAfter; got != c.away || p.RetryAfterSeconds != nil {
			t.Errorf("%v: Retry-After %d (body %v), want it: %v", c.err, p.retryAfterHeader, p.RetryAfterSeconds, c.away)
		}
	}
}
