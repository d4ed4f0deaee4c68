package mail

import (
	"context"
	"log/slog"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Sender is what both ways of sending do.
type Sender interface {
	Send(ctx context.Context, n webhooks.Notice) error
}

// New sends through smtpURL (CREATORAPI_SMTP_URL), or into dataDir/mail when it is empty.
func New(smtpURL, dataDir string, logger *slog.Logger) (Sender, error) {
	if smtpURL == "" {
		return NewFiles(dataDir, logger), nil
	}
	s, err := NewSMTP(smtpURL)
	if err != nil {
		return nil, err
	}
	return s, nil
}
