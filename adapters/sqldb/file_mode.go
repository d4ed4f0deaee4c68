package sqldb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// dbFileMode is the mode of the SQLite database and its -wal and -shm files: they hold
// every workspace's data, readable by the service's user only. SQLite creates the -wal
// and -shm files with the database file's mode, so creating the database file 0600
// before SQLite opens it settles all three, whatever the umask or the data folder.
const dbFileMode = 0o600

// restrictFiles creates path 0600 when it does not exist, and narrows the database and
// its -wal and -shm files to 0600 when an older version (or the umask) left them wider.
func restrictFiles(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, dbFileMode)
	if err != nil {
		return fmt.Errorf("create sqlite database %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sqlite file %s: %w", p, err)
		}
		if info.Mode().Perm()&^dbFileMode != 0 {
			if err := os.Chmod(p, dbFileMode); err != nil {
				return fmt.Errorf("restrict sqlite file %s to 0600: %w", p, err)
			}
		}
	}
	return nil
}
