package sqlstore

import (
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// utcPtr reads a nullable instant in UTC.
func utcPtr(t *time.Time) *time.Time { return platform.UTCPtr(t) }
