package listen

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// state is what listen keeps between runs: its signing secret (so a receiver configured
// once keeps verifying) and the cursor after the last event a receiver accepted (2xx), for
// the feed of BaseURL.
type state struct {
	Secret  string `json:"secret"`
	BaseURL string `json:"baseUrl,omitempty"`
	Cursor  string `json:"cursor,omitempty"`
}

func loadState(path string) (state, error) {
	var s state
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("state file: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("state file %s: %w", path, err)
	}
	return s, nil
}

// save writes the state whole or not at all (a temporary file renamed over it), readable
// by its owner only: it holds a signing secret.
func (s state) save(path string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("state file: %w", err)
	}
	return nil
}

// DefaultStateFile is where listen keeps its state without --state.
func DefaultStateFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = "."
	}
	return filepath.Join(dir, "creatorapi", "listen.json")
}
