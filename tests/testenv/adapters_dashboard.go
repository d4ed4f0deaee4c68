package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/adapters/ids"
	memaudit "github.com/creatorapi/creatorapi/adapters/memory/audit"
	memmembers "github.com/creatorapi/creatorapi/adapters/memory/members"
	sqlaudit "github.com/creatorapi/creatorapi/adapters/sql/audit"
	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
	appaudit "github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// MemoryMembers swaps the members module's three ports for one in-memory store.
func MemoryMembers(s *memmembers.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(memmembers.Rows{Store: s}, fx.As(new(members.Rows)))),
		fx.Replace(fx.Annotate(memmembers.Links{Store: s}, fx.As(new(members.Links)))),
		fx.Replace(fx.Annotate(memmembers.Sessions{Store: s}, fx.As(new(members.Sessions)))),
		fx.Replace(fx.Annotate(memmembers.Outbox{Store: s}, fx.As(new(members.LinkRequests)))),
	)
}

// MemoryAudit swaps the audit log (what commands record and the dashboard reads).
func MemoryAudit(l *memaudit.Log) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(l, fx.As(new(platform.AuditTrail)))),
		fx.Replace(fx.Annotate(l, fx.As(new(appaudit.Reader)))),
	)
}

// MemberAdapters returns the members contract suites' factory on the adapter set.
func MemberAdapters(set AdapterSet, databaseURL string) contracttest.MemberFactory {
	return func(t *testing.T) contracttest.MemberAdapters {
		if set == Memory {
			s := memmembers.New()
			return contracttest.MemberAdapters{Rows: memmembers.Rows{Store: s}, Links: memmembers.Links{Store: s}, Outbox: memmembers.Outbox{Store: s},
				Sessions: memmembers.Sessions{Store: s}, NewWorkspace: newWorkspaceID}
		}
		db := MigratedDB(t, databaseURL)
		s := sqlmembers.NewStore(db)
		return contracttest.MemberAdapters{Rows: sqlmembers.Rows{Store: s}, Links: sqlmembers.Links{Store: s}, Outbox: sqlmembers.Outbox{Store: s},
			Sessions: sqlmembers.Sessions{Store: s}, NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}

// AuditAdapters returns the audit contract suite's factory on the adapter set.
func AuditAdapters(set AdapterSet, databaseURL string) contracttest.AuditFactory {
	return func(t *testing.T) contracttest.AuditAdapters {
		c := clock.NewManual(Epoch)
		if set == Memory {
			return contracttest.AuditAdapters{Log: memaudit.New(ids.NewULIDs(c), c), Clock: c, NewWorkspace: newWorkspaceID}
		}
		db := MigratedDB(t, databaseURL)
		return contracttest.AuditAdapters{Log: sqlaudit.NewLog(db, ids.NewULIDs(c), c), Clock: c,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}
