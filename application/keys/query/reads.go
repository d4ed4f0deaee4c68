package query

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Reads are the ports the key queries read through; each query is a method.
type Reads struct {
	Repo     keys.Repository
	Pages    KeyPages
	Views    Views
	Usage    UsageRecorder
	Requests RequestCounts
	Clock    platform.Clock
}
