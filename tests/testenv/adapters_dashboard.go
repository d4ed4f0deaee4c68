package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/adapters/ids"
	sqlaudit "github.com/creatorapi/creatorapi/adapters/sql/audit"
	sqlidempotency "github.com/creatorapi/creatorapi/adapters/sql/idempotency"
	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
)

// MemberAdapters returns the members contract suites' factory on databaseURL.
func MemberAdapters(databaseURL string) contracttest.MemberFactory {
	return func(t *testing.T) contracttest.MemberAdapters {
		db := MigratedDB(t, databaseURL)
		s := sqlmembers.NewStore(db)
		return contracttest.MemberAdapters{Rows: sqlmembers.Rows{Store: s}, Links: sqlmembers.Links{Store: s}, Outbox: sqlmembers.Outbox{Store: s},
			Sessions: sqlmembers.Sessions{Store: s}, NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}

// AuditAdapters returns the audit contract suite's factory on databaseURL.
func AuditAdapters(databaseURL string) contracttest.AuditFactory {
	return func(t *testing.T) contracttest.AuditAdapters {
		c := clock.NewManual(Epoch)
		db := MigratedDB(t, databaseURL)
		return contracttest.AuditAdapters{Log: sqlaudit.NewLog(db, ids.NewULIDs(c), c), Clock: c,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}

// IdempotencyAdapters returns the Idempotency-Key store's contract suite factory on databaseURL.
func IdempotencyAdapters(databaseURL string) contracttest.IdempotencyFactory {
	return func(t *testing.T) contracttest.IdempotencyAdapters {
		db := MigratedDB(t, databaseURL)
		return contracttest.IdempotencyAdapters{Store: sqlidempotency.NewStore(db), Tx: db,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}
