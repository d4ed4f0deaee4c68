// Package webhooks is the application service of signed webhook delivery: endpoints,
// the fan-out of events into deliveries, and the use cases the dispatcher drives.
package webhooks

import (
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state. The last six are driven by the event consumer and the dispatcher.
type Commands struct {
	CreateWebhook     command.CreateWebhookHandler
	SetWebhookStatus  command.SetWebhookStatusHandler
	RotateSecret      command.RotateSecretHandler
	ResendDelivery    command.ResendDeliveryHandler
	RecoverDeliveries command.RecoverDeliveriesHandler
	FanOut            command.FanOutHandler
	ClaimDue          command.ClaimDueHandler
	Release           command.ReleaseHandler
	RecordAttempt     command.RecordAttemptHandler
	SendNotices       command.SendNoticesHandler
	PruneLog          command.PruneLogHandler
	UpdateWebhook     command.UpdateWebhookHandler
	SendTestEvent     command.SendTestEventHandler
}

// Queries read state.
type Queries struct {
	ListWebhooks   query.ListWebhooksHandler
	ListDeliveries query.ListDeliveriesHandler
	DeliveryLog    query.DeliveryLogHandler // the dashboard's log: filters, search, one delivery, stats
}

// Deps are the ports the module needs.
type Deps struct {
	command.Deps
	Pages query.DeliveryPages
	Log   query.DeliveryLog
}

// New wires the use cases to their ports.
func New(d Deps) Application {
	c := d.Deps
	return Application{
		Commands: Commands{
			CreateWebhook:     command.NewCreateWebhookHandler(c),
			SetWebhookStatus:  command.NewSetWebhookStatusHandler(c),
			RotateSecret:      command.NewRotateSecretHandler(c),
			ResendDelivery:    command.NewResendDeliveryHandler(c),
			RecoverDeliveries: command.NewRecoverDeliveriesHandler(c),
			FanOut:            command.NewFanOutHandler(c),
			ClaimDue:          command.NewClaimDueHandler(c),
			Release:           command.NewReleaseHandler(c),
			RecordAttempt:     command.NewRecordAttemptHandler(c),
			SendNotices:       command.NewSendNoticesHandler(c),
			PruneLog:          command.NewPruneLogHandler(c),
			UpdateWebhook:     command.NewUpdateWebhookHandler(c),
			SendTestEvent:     command.NewSendTestEventHandler(c),
		},
		Queries: Queries{
			ListWebhooks:   query.NewListWebhooksHandler(c.Subs),
			ListDeliveries: query.NewListDeliveriesHandler(c.Subs, d.Pages),
			DeliveryLog:    query.NewDeliveryLogHandler(c.Subs, d.Log, c.Deliveries),
		},
	}
}
