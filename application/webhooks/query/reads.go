package query

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Reads are the ports the webhook queries read through; each query is a method.
type Reads struct {
	Subs       webhooks.Repository
	Deliveries webhooks.Deliveries
	Pages      DeliveryPages
	Log        DeliveryLog
	Health     webhooks.HealthStore // the endpoints' health rollup
	Clock      platform.Clock
}
