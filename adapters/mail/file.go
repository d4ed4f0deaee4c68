package mail

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Files writes each notice to <data folder>/mail/<notice id>.eml and logs a line: the
// fallback when no SMTP server is configured. Writing twice overwrites one file.
type Files struct {
	dir    string
	logger *slog.Logger
}

// NewFiles writes into dataDir/mail.
func NewFiles(dataDir string, logger *slog.Logger) *Files {
	return &Files{dir: filepath.Join(dataDir, "mail"), logger: logger}
}

// Send writes n atomically (temporary file, then rename).
func (f *Files) Send(_ context.Context, n webhooks.Notice) error {
	if err := os.MkdirAll(f.dir, 0o700); err != nil {
		return fmt.Errorf("notice folder: %w", err)
	}
	path := filepath.Join(f.dir, n.ID+".eml")
	content := fmt.Sprintf("To: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s@creatorapi>\r\n\r\n%s",
		n.To, n.Subject, n.CreatedAt.Format(time.RFC1123Z), n.ID, n.Body)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		return fmt.Errorf("write notice: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write notice: %w", err)
	}
	f.logger.Warn("e-mail notice written (CREATORAPI_SMTP_URL is unset)", "to", n.To, "subject", n.Subject, "file", path)
	return nil
}
