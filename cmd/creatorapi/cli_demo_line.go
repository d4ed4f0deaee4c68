package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// demoCLI is how the demo's printed CLI lines run this binary on the demo's data from
// any directory. A verb run without the server's settings opens another database (the
// default ./data is relative to where it runs) or cannot open the signing secrets (a
// master key given in the environment): so the line carries the data folder as an
// absolute path and names the variables the demo was given. Secrets are never printed:
// a database URL with a password and the master key are referenced as "$VARIABLE", which
// the shell that started the demo holds.
func (c *CLI) demoCLI(cfg compose.Config) (string, error) {
	dataDir, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return "", fmt.Errorf("demo: data folder: %w", err)
	}
	parts := []string{"CREATORAPI_DATA_DIR=" + shellQuote(dataDir)}
	if raw := c.getenv("CREATORAPI_DATABASE_URL"); raw != "" {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			if _, hasPassword := u.User.Password(); hasPassword {
				raw = ""
			}
		}
		if raw == "" {
			parts = append(parts, `CREATORAPI_DATABASE_URL="$CREATORAPI_DATABASE_URL"`)
		} else {
			parts = append(parts, "CREATORAPI_DATABASE_URL="+shellQuote(raw))
		}
	}
	if c.getenv("CREATORAPI_SECRET_KEY") != "" {
		parts = append(parts, `CREATORAPI_SECRET_KEY="$CREATORAPI_SECRET_KEY"`)
	}
	if cfg.WebhookAllowPrivate {
		parts = append(parts, "CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true")
	}
	return strings.Join(append(parts, demoExecutable()), " "), nil
}

// demoExecutable is this binary's absolute path, or `go run ./cmd/creatorapi` when it is
// go run's temporary build (gone when the demo stops).
func demoExecutable() string {
	exe, err := os.Executable()
	if err != nil || strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "go run ./cmd/creatorapi"
	}
	return shellQuote(exe)
}

// shellQuote leaves plain words as they are and single-quotes anything else.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-:=@,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
