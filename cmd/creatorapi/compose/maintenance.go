package compose

import (
	"context"
	"log/slog"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// warnAboutMaintenance logs, once at start after migrations, what the database's
// settings leave to the operator (autovacuum off, for one).
func warnAboutMaintenance(lc fx.Lifecycle, db *sqldb.DB, logger *slog.Logger) {
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error {
		warnings, err := db.MaintenanceWarnings(ctx)
		if err != nil {
			logger.Warn("database maintenance check", "error", err)
		}
		for _, w := range warnings {
			logger.Warn(w)
		}
		return nil
	}})
}
