// Package command holds the deprecations module's use cases: counting deprecated calls
// per key (buffered, flushed in bulk) and telling owners before a sunset.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// Owners says whom to tell about a workspace.
type Owners interface {
	OwnerEmail(ctx context.Context, workspaceID string) (string, error)
}

// Mailer sends one e-mail. Sending twice is acceptable, losing one is not.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Deps are the ports of the commands.
type Deps struct {
	Repo         deprecations.Repository
	Owners       Owners
	Mailer       Mailer
	Clock        platform.Clock
	DashboardURL string // CREATORAPI_PUBLIC_URL + /dashboard, named in the notices
}
