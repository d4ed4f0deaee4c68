// Package webhooks is the application service of signed webhook delivery: endpoints,
// the fan-out of events into deliveries, and the use cases the dispatcher drives.
package webhooks

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state. The use cases of people and operators have the one handler
// shape (platform.Command); the six driven by the event consumer and the dispatcher
// (FanOut to PruneLog) keep their own signatures and transactions: they batch, run in
// the subscriber's transaction or return per-item results, and the dispatcher
// (adapters/webhooks) calls them as they are.
type Commands struct {
	CreateWebhook     platform.Handler[command.CreateWebhook, command.WebhookWithSecret]
	UpdateWebhook     platform.Handler[command.UpdateWebhook, query.Webhook]
	SetWebhookStatus  platform.Handler[command.SetWebhookStatus, query.Webhook]
	RotateSecret      platform.Handler[command.RotateSecret, command.WebhookWithSecret]
	ResendDelivery    platform.Handler[command.ResendDelivery, query.Delivery]
	RecoverDeliveries platform.Handler[command.RecoverDeliveries, command.Recovered]
	SendTestEvent     platform.Handler[command.SendTestEvent, command.TestSent]
	SendWaiting       platform.Handler[command.SendWaiting, command.Queued]
	SetReceiver       platform.Handler[command.SetReceiver, query.Webhook]
	StartBackfill     platform.Handler[command.StartBackfill, command.BackfillView]

	FanOut        command.FanOutHandler
	ClaimDue      command.ClaimDueHandler
	Release       command.ReleaseHandler
	RecordAttempt command.RecordAttemptHandler
	SendNotices   command.SendNoticesHandler
	PruneLog      command.PruneLogHandler
	RunBackfill   command.RunBackfillHandler
}

// Queries read state.
type Queries struct {
	ListWebhooks   platform.Handler[string, []query.Webhook] // by workspace id
	ListDeliveries platform.Handler[query.ListDeliveries, platform.Page[query.Delivery]]
	// The dashboard's delivery log: filters and search, stats per endpoint, one delivery.
	DeliveryLogPage platform.Handler[query.DeliveryLogPage, platform.Page[*webhooks.Delivery]]
	DeliveryStats   platform.Handler[query.DeliveryStats, map[string]query.EndpointStats]
	GetDelivery     platform.Handler[query.GetDelivery, query.DeliveryDetail]
	// EndpointHealth: attempts, success rate, latency and last error over 24 h and 7 days.
	EndpointHealth platform.Handler[query.EndpointHealth, query.Health]
	LatestBackfill platform.Handler[command.LatestBackfill, *command.BackfillView]
}

// Deps are the ports the module needs.
type Deps struct {
	command.Deps
	Pages  query.DeliveryPages
	Log    query.DeliveryLog
	Health webhooks.HealthStore
}

// New wires the use cases to their ports, the people's and operators' decorated in the
// one handler shape (transaction, observation, error wrapping).
func New(d Deps) Application {
	c := d.Deps
	reads := query.Reads{Subs: c.Subs, Deliveries: c.Deliveries, Pages: d.Pages, Log: d.Log, Health: d.Health, Clock: c.Clock}
	return Application{
		Commands: Commands{
			CreateWebhook:     platform.Command("create webhook", c.Tx, c.Observer, c.CreateWebhook),
			UpdateWebhook:     platform.Command("update webhook", c.Tx, c.Observer, c.UpdateWebhook),
			SetWebhookStatus:  platform.Command("set webhook status", c.Tx, c.Observer, c.SetWebhookStatus),
			RotateSecret:      platform.Command("rotate webhook secret", c.Tx, c.Observer, c.RotateSecret),
			ResendDelivery:    platform.Command("resend delivery", c.Tx, c.Observer, c.ResendDelivery),
			RecoverDeliveries: platform.Command("recover deliveries", c.Tx, c.Observer, c.RecoverDeliveries),
			SendTestEvent:     platform.Command("send test event", c.Tx, c.Observer, c.SendTestEvent),
			SendWaiting:       platform.Command("send waiting deliveries", c.Tx, c.Observer, c.SendWaiting),
			SetReceiver:       platform.Command("set webhook receiver", c.Tx, c.Observer, c.SetReceiver),
			StartBackfill:     platform.Command("start webhook backfill", c.Tx, c.Observer, c.StartBackfill),

			FanOut:        command.NewFanOutHandler(c),
			ClaimDue:      command.NewClaimDueHandler(c),
			Release:       command.NewReleaseHandler(c),
			RecordAttempt: command.NewRecordAttemptHandler(c),
			SendNotices:   command.NewSendNoticesHandler(c),
			PruneLog:      command.NewPruneLogHandler(c),
			RunBackfill:   command.NewRunBackfillHandler(c),
		},
		Queries: Queries{
			ListWebhooks:    platform.Query("list webhooks", c.Observer, reads.ListWebhooks),
			ListDeliveries:  platform.Query("list deliveries", c.Observer, reads.ListDeliveries),
			DeliveryLogPage: platform.Query("delivery log page", c.Observer, reads.DeliveryLogPage),
			DeliveryStats:   platform.Query("delivery stats", c.Observer, reads.DeliveryStats),
			GetDelivery:     platform.Query("get delivery", c.Observer, reads.GetDelivery),
			EndpointHealth:  platform.Query("endpoint health", c.Observer, reads.EndpointHealth),
			LatestBackfill:  platform.Query("latest webhook backfill", c.Observer, c.LatestBackfill),
		},
	}
}
