package sqldb

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/creatorapi/creatorapi/migrations"
)

// SQLitePath is the database file databaseURL names (as Open resolves it), or "" when
// the URL is PostgreSQL's.
func SQLitePath(databaseURL, dataDir string) string {
	if databaseURL != "" && !strings.HasPrefix(databaseURL, "sqlite://") {
		return ""
	}
	if path := strings.TrimPrefix(databaseURL, "sqlite://"); path != "" {
		return path
	}
	return filepath.Join(dataDir, "creatorapi.db")
}

// LatestMigration is the newest schema version this build's migrations reach on dialect
// (goose's version: the number before the file name's first underscore).
func LatestMigration(dialect Dialect) (int64, error) {
	entries, err := fs.ReadDir(migrations.FS, string(dialect))
	if err != nil {
		return 0, fmt.Errorf("migrations for %s: %w", dialect, err)
	}
	var latest int64
	for _, e := range entries {
		prefix, _, ok := strings.Cut(e.Name(), "_")
		if v, err := strconv.ParseInt(prefix, 10, 64); ok && err == nil && v > latest {
			latest = v
		}
	}
	return latest, nil
}
