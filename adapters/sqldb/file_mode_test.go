//go:build unix

package sqldb

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The database, -wal and -shm files are 0600 even in a data folder that already exists
// (a container volume) under a permissive umask, and files an older version left 0644
// are narrowed.
func TestSQLiteFilesAreCreatedOwnerOnly(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(path string) {
		t.Helper()
		db, err := Open(context.Background(), "sqlite://"+path, dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Writer.Exec(`CREATE TABLE IF NOT EXISTS t (x INTEGER)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Writer.Exec(`INSERT INTO t VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			info, err := os.Stat(p)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if info.Mode().Perm() != 0o600 {
				t.Errorf("%s is %o, want 600", filepath.Base(p), info.Mode().Perm())
			}
		}
		db.Close()
	}
	check(filepath.Join(dir, "creatorapi.db"))

	legacy := filepath.Join(dir, "legacy.db")
	for _, p := range []string{legacy, legacy + "-wal", legacy + "-shm"} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check(legacy)
}
