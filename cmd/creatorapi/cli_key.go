package main

import (
	"context"
	"flag"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/workspaces"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
)

func (c *CLI) key(args []string) error {
	if len(args) == 0 {
		return usageError("usage: creatorapi key create|list|revoke ...")
	}
	switch args[0] {
	case "create":
		return c.keyCreate(args[1:])
	case "list":
		return c.keyList(args[1:])
	case "revoke":
		return c.keyRevoke(args[1:])
	}
	return usageError("unknown key command " + args[0] + "; use create, list or revoke")
}

func (c *CLI) keyCreate(args []string) error {
	fs := flag.NewFlagSet("key create", flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	name := fs.String("name", "", "a memorable name")
	scopes := fs.String("scopes", "", "comma-separated scopes: "+scopeList())
	perMinute := fs.Int("per-minute", domainkeys.DefaultPerMinute, "requests per clock minute")
	perDay := fs.Int("per-day", domainkeys.DefaultPerDay, "requests per UTC day")
	test := fs.Bool("test", false, "make an svc_test_ key of the workspace's sandbox")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	for flagName, v := range map[string]string{"workspace": *ws, "name": *name, "scopes": *scopes} {
		if err := required(flagName, v); err != nil {
			return err
		}
	}
	if *perMinute < 1 || *perDay < 1 {
		return usageError("--per-minute and --per-day must be positive")
	}
	var app keys.Application
	var wsApp workspaces.Application
	return c.withModules(func(ctx context.Context) error {
		target, err := targetWorkspace(ctx, wsApp, *ws, *test)
		if err != nil {
			return err
		}
		k, err := app.Commands.CreateKey.Handle(ctx, command.CreateKey{
			WorkspaceID: target, Name: *name, Scopes: strings.Split(*scopes, ","), PerMinute: *perMinute, PerDay: *perDay,
		})
		if err != nil {
			return err
		}
		return c.printJSON(struct {
			ID          string             `json:"id"`
			WorkspaceID string             `json:"workspaceId"`
			Livemode    bool               `json:"livemode"`
			Name        string             `json:"name"`
			Scopes      []domainkeys.Scope `json:"scopes"`
			PerMinute   int                `json:"perMinute"`
			PerDay      int                `json:"perDay"`
			Secret      string             `json:"secret"`
			CreatedAt   time.Time          `json:"createdAt"`
		}{k.ID, target, !*test, k.Name, k.Scopes, k.PerMinute, k.PerDay, k.Secret, k.CreatedAt})
	}, &app, &wsApp)
}

func (c *CLI) keyList(args []string) error {
	ws, _, err := workspaceCommand("key list", "", args)
	if err != nil {
		return err
	}
	var app keys.Application
	return c.withModules(func(ctx context.Context) error {
		list, err := app.Queries.ListKeys.Handle(ctx, ws)
		if err != nil {
			return err
		}
		return c.printJSON(map[string]any{"data": list})
	}, &app)
}

func (c *CLI) keyRevoke(args []string) error {
	ws, keyID, err := workspaceCommand("key revoke", "KEY_ID", args)
	if err != nil {
		return err
	}
	var app keys.Application
	return c.withModules(func(ctx context.Context) error {
		k, err := app.Commands.RevokeKey.Handle(ctx, command.RevokeKey{WorkspaceID: ws, KeyID: keyID})
		if err != nil {
			return err
		}
		return c.printJSON(k)
	}, &app)
}

func scopeList() string {
	return strings.Join(domainkeys.ScopeNames(domainkeys.AllScopes), ",")
}
