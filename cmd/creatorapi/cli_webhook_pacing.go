package main

import (
	"context"
	"flag"
	"strings"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// pacingFlags adds --rate-limit and --ordered to fs; the returned function reads them
// into a change (flags not given change nothing; --rate-limit 0 removes the limit).
func pacingFlags(fs *flag.FlagSet) func() command.PacingChange {
	rate := fs.Int("rate-limit", -1, "deliveries per second at most, 1..1000 (0: no limit)")
	ordered := fs.Bool("ordered", false, "send the endpoint's deliveries one at a time, in event order (--ordered=false: concurrently)")
	return func() command.PacingChange {
		var c command.PacingChange
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "rate-limit":
				c.RateLimit = rate
			case "ordered":
				c.Ordered = ordered
			}
		})
		return c
	}
}

// webhookUpdate changes an endpoint's URL, types, pacing or receiver (headers, OAuth2
// grant); what is not given stays.
func (c *CLI) webhookUpdate(args []string) error {
	fs := flag.NewFlagSet("webhook update", flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	url := fs.String("url", "", "https URL that receives the events")
	evs := fs.String("events", "", "comma-separated event types: "+strings.Join(command.PublicTypeNames(), ","))
	pacing := pacingFlags(fs)
	rf := addReceiverFlags(fs, true)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := required("workspace", *ws); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("usage: creatorapi webhook update --workspace ORG [--url U] [--events t1,t2] [--rate-limit N] [--ordered] " +
			"[--header 'Name: value']... [--clear-headers] [--oauth2-...] [--clear-auth] WEBHOOK_ID")
	}
	var app webhooks.Application
	var tx platform.Transactor
	// One transaction: a refused receiver leaves the URL, types and pacing as they were.
	return c.withModules(func(ctx context.Context) error {
		var w query.Webhook
		err := tx.WithinTx(ctx, func(ctx context.Context) (err error) {
			w, err = updateWebhook(ctx, app, *ws, pos[0], *url, *evs, pacing(), rf)
			return err
		})
		if err != nil {
			return err
		}
		return c.printJSON(w)
	}, &app, &tx)
}

// updateWebhook applies webhook update's flags to the endpoint id.
func updateWebhook(ctx context.Context, app webhooks.Application, ws, id, url, evs string, pacing command.PacingChange, rf *receiverFlags) (query.Webhook, error) {
	list, err := app.Queries.ListWebhooks.Handle(ctx, ws)
	if err != nil {
		return query.Webhook{}, err
	}
	cmd := command.UpdateWebhook{WorkspaceID: ws, WebhookID: id, URL: url, Pacing: pacing}
	if evs != "" {
		cmd.Events = strings.Split(evs, ",")
	}
	var current *query.Webhook
	for i := range list {
		if list[i].ID == id {
			current = &list[i]
		}
	}
	if current == nil {
		return query.Webhook{}, kernel.NotFound("webhook %s not found", id)
	}
	if cmd.URL == "" {
		cmd.URL = current.URL
	}
	if cmd.Events == nil {
		cmd.Events = current.Events
	}
	w, err := app.Commands.UpdateWebhook.Handle(ctx, cmd)
	if err != nil || !rf.given() {
		return w, err
	}
	was := domainwebhooks.Receiver{Headers: current.Headers, Auth: current.Auth}
	return app.Commands.SetReceiver.Handle(ctx, command.SetReceiver{WorkspaceID: ws, WebhookID: id, Receiver: rf.receiver(was)})
}

// webhookSendWaiting makes the endpoint's waiting deliveries due now (a running serve
// sends them within a second).
func (c *CLI) webhookSendWaiting(args []string) error {
	ws, webhookID, err := workspaceCommand("webhook send-waiting", "WEBHOOK_ID", args)
	if err != nil {
		return err
	}
	var app webhooks.Application
	return c.withModules(func(ctx context.Context) error {
		n, err := app.Commands.SendWaiting.Handle(ctx, command.SendWaiting{WorkspaceID: ws, WebhookID: webhookID})
		if err != nil {
			return err
		}
		return c.printJSON(n)
	}, &app)
}
