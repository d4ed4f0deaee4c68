package main

import (
	"context"
	"flag"

	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/application/members/command"
)

func (c *CLI) dashboard(args []string) error {
	if len(args) == 0 || args[0] != "link" {
		return usageError("usage: creatorapi dashboard link --workspace ORG [--email E]")
	}
	fs := flag.NewFlagSet("dashboard link", flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	email := fs.String("email", "", "a member's address (default: the workspace owner)")
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if err := required("workspace", *ws); err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("usage: creatorapi dashboard link --workspace ORG [--email E]")
	}
	var app members.Application
	return c.withModules(func(ctx context.Context) error {
		link, err := app.Commands.IssueLink.Handle(ctx, command.IssueLink{WorkspaceID: *ws, Email: *email})
		if err != nil {
			return err
		}
		return c.printJSON(link)
	}, &app)
}
