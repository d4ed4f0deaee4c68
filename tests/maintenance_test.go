package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The start-up warning follows the server's real autovacuum setting (off on these
// machines, on in most deployments), and SQLite has nothing to warn about.
func TestMaintenanceWarningsFollowAutovacuum(t *testing.T) {
	ctx := context.Background()
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		db, err := sqldb.Open(ctx, url, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		warnings, err := db.MaintenanceWarnings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if db.Dialect != sqldb.Postgres {
			if len(warnings) != 0 {
				t.Fatalf("SQLite warnings: %v", warnings)
			}
			return
		}
		var autovacuum string
		if err := db.Reader.QueryRowContext(ctx, "SHOW autovacuum").Scan(&autovacuum); err != nil {
			t.Fatal(err)
		}
		warned := len(warnings) == 1 && strings.Contains(warnings[0], "VACUUM (ANALYZE)")
		if warned != (autovacuum == "off") {
			t.Fatalf("autovacuum=%s, warnings %q", autovacuum, warnings)
		}
	})
}
