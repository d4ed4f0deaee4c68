package main

import (
	"context"
	"flag"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/application/workspaces"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

func (c *CLI) webhook(args []string) error {
	if len(args) == 0 {
		return usageError("usage: creatorapi webhook create|update|backfill|list|disable|enable|send-waiting ...")
	}
	switch args[0] {
	case "create":
		return c.webhookCreate(args[1:])
	case "update":
		return c.webhookUpdate(args[1:])
	case "backfill":
		return c.webhookBackfill(args[1:])
	case "list":
		return c.webhookList(args[1:])
	case "disable":
		return c.webhookSetStatus("disable", false, args[1:])
	case "enable":
		return c.webhookSetStatus("enable", true, args[1:])
	case "send-waiting":
		return c.webhookSendWaiting(args[1:])
	}
	return usageError("unknown webhook command " + args[0] + "; use create, update, backfill, list, disable, enable or send-waiting")
}

func (c *CLI) webhookCreate(args []string) error {
	fs := flag.NewFlagSet("webhook create", flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	url := fs.String("url", "", "https URL that receives the events")
	evs := fs.String("events", "", "comma-separated event types: "+strings.Join(command.PublicTypeNames(), ","))
	test := fs.Bool("test", false, "make an endpoint of the workspace's sandbox: it receives only sandbox events")
	pacing := pacingFlags(fs)
	rf := addReceiverFlags(fs, false)
	backfill := fs.String("backfill-since", "", "RFC 3339 time, at most 30 days ago: also send the endpoint its types' events since then")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	since, err := parseSince("backfill-since", *backfill)
	if err != nil {
		return err
	}
	for flagName, v := range map[string]string{"workspace": *ws, "url": *url, "events": *evs} {
		if err := required(flagName, v); err != nil {
			return err
		}
	}
	var app webhooks.Application
	var wsApp workspaces.Application
	return c.withModules(func(ctx context.Context) error {
		target, err := targetWorkspace(ctx, wsApp, *ws, *test)
		if err != nil {
			return err
		}
		w, err := app.Commands.CreateWebhook.Handle(ctx, command.CreateWebhook{
			WorkspaceID: target, URL: *url, Events: strings.Split(*evs, ","), Pacing: pacing(),
			Receiver: rf.receiver(domainwebhooks.Receiver{}), BackfillSince: since,
		})
		if err != nil {
			return err
		}
		return c.printJSON(struct {
			ID            string    `json:"id"`
			WorkspaceID   string    `json:"workspaceId"`
			Livemode      bool      `json:"livemode"`
			URL           string    `json:"url"`
			Events        []string  `json:"events"`
			Status        string    `json:"status"`
			SigningSecret string    `json:"signingSecret"`
			CreatedAt     time.Time `json:"createdAt"`
			query.Pacing
			// Masked like everywhere else: the values were typed here, they are not shown back.
			Headers []domainwebhooks.Header `json:"headers,omitempty"`
			Auth    *domainwebhooks.OAuth2  `json:"auth,omitempty"`
		}{w.ID, target, !*test, w.URL, w.Events, w.Status, w.SigningSecret, w.CreatedAt, w.Pacing, w.Headers, w.Auth})
	}, &app, &wsApp)
}

func (c *CLI) webhookList(args []string) error {
	ws, _, err := workspaceCommand("webhook list", "", args)
	if err != nil {
		return err
	}
	var app webhooks.Application
	return c.withModules(func(ctx context.Context) error {
		list, err := app.Queries.ListWebhooks.Handle(ctx, ws)
		if err != nil {
			return err
		}
		return c.printJSON(map[string]any{"data": list})
	}, &app)
}

func (c *CLI) webhookSetStatus(verb string, enabled bool, args []string) error {
	ws, webhookID, err := workspaceCommand("webhook "+verb, "WEBHOOK_ID", args)
	if err != nil {
		return err
	}
	var app webhooks.Application
	return c.withModules(func(ctx context.Context) error {
		w, err := app.Commands.SetWebhookStatus.Handle(ctx, command.SetWebhookStatus{WorkspaceID: ws, WebhookID: webhookID, Enabled: enabled})
		if err != nil {
			return err
		}
		return c.printJSON(w)
	}, &app)
}
