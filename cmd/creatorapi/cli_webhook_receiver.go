package main

import (
	"context"
	"flag"
	"time"

	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// receiverFlags are the flags of an endpoint's receiver: repeatable --header 'Name: value'
// and an OAuth2 client-credentials grant.
type receiverFlags struct {
	headers                                 headerList
	tokenURL, clientID, clientSecret, scope *string
	clearHeaders, clearAuth                 *bool // update only
}

// headerList collects repeated --header flags.
type headerList []domainwebhooks.Header

func (l *headerList) String() string { return "" }

func (l *headerList) Set(v string) error {
	h, err := domainwebhooks.ParseHeaderLine(v)
	if err != nil {
		return err
	}
	*l = append(*l, h)
	return nil
}

func addReceiverFlags(fs *flag.FlagSet, update bool) *receiverFlags {
	f := &receiverFlags{}
	fs.Var(&f.headers, "header", "a static header sent on every attempt, 'Name: value' (repeatable, at most 10)")
	f.tokenURL = fs.String("oauth2-token-url", "", "OAuth2 client-credentials token URL: attempts carry its token as a bearer")
	f.clientID = fs.String("oauth2-client-id", "", "OAuth2 client id")
	f.clientSecret = fs.String("oauth2-client-secret", "", "OAuth2 client secret")
	f.scope = fs.String("oauth2-scope", "", "OAuth2 scopes, space-separated")
	if update {
		f.clearHeaders = fs.Bool("clear-headers", false, "remove every static header")
		f.clearAuth = fs.Bool("clear-auth", false, "remove the OAuth2 grant")
	}
	return f
}

// receiver is what the flags ask for; on an update, what they leave out is current's
// (masked values, which the command resolves to the stored ones).
func (f *receiverFlags) receiver(current domainwebhooks.Receiver) domainwebhooks.Receiver {
	out := current
	if len(f.headers) > 0 {
		out.Headers = f.headers
	} else if f.clearHeaders != nil && *f.clearHeaders {
		out.Headers = nil
	}
	if *f.tokenURL != "" || *f.clientID != "" || *f.clientSecret != "" {
		out.Auth = &domainwebhooks.OAuth2{TokenURL: *f.tokenURL, ClientID: *f.clientID, ClientSecret: *f.clientSecret, Scope: *f.scope}
	} else if f.clearAuth != nil && *f.clearAuth {
		out.Auth = nil
	}
	return out
}

// parseSince reads --backfill-since / --since (RFC 3339).
func parseSince(name, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return nil, usageError("--" + name + " must be an RFC 3339 time, such as 2026-01-02T15:04:05Z")
	}
	return &t, nil
}

// given says whether any receiver flag was set.
func (f *receiverFlags) given() bool {
	return len(f.headers) > 0 || *f.tokenURL != "" || *f.clientID != "" || *f.clientSecret != "" ||
		(f.clearHeaders != nil && *f.clearHeaders) || (f.clearAuth != nil && *f.clearAuth)
}

// webhookBackfill sends an endpoint its types' events since a time:
// creatorapi webhook backfill --workspace ORG --since RFC3339 WEBHOOK_ID
func (c *CLI) webhookBackfill(args []string) error {
	fs := flag.NewFlagSet("webhook backfill", flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	sinceFlag := fs.String("since", "", "RFC 3339 time, at most 30 days ago: the endpoint receives its types' events since then")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	for name, v := range map[string]string{"workspace": *ws, "since": *sinceFlag} {
		if err := required(name, v); err != nil {
			return err
		}
	}
	if len(pos) != 1 {
		return usageError("usage: creatorapi webhook backfill --workspace ORG --since RFC3339 WEBHOOK_ID")
	}
	since, err := parseSince("since", *sinceFlag)
	if err != nil {
		return err
	}
	var app webhooks.Application
	return c.withModules(func(ctx context.Context) error {
		b, err := app.Commands.StartBackfill.Handle(ctx, command.StartBackfill{WorkspaceID: *ws, WebhookID: pos[0], Since: *since})
		if err != nil {
			return err
		}
		return c.printJSON(b)
	}, &app)
}
