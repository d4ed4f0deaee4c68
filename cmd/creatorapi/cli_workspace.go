package main

import (
	"context"
	"flag"

	"github.com/creatorapi/creatorapi/application/workspaces"
	"github.com/creatorapi/creatorapi/application/workspaces/command"
)

func (c *CLI) workspace(args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return usageError("usage: creatorapi workspace create --name N --owner-email E")
	}
	fs := flag.NewFlagSet("workspace create", flag.ContinueOnError)
	name := fs.String("name", "", "workspace name")
	email := fs.String("owner-email", "", "owner's e-mail, for notices")
	if _, err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := required("name", *name); err != nil {
		return err
	}
	if err := required("owner-email", *email); err != nil {
		return err
	}
	var app workspaces.Application
	return c.withModules(func(ctx context.Context) error {
		w, err := app.Commands.CreateWorkspace.Handle(ctx, command.CreateWorkspace{Name: *name, OwnerEmail: *email})
		if err != nil {
			return err
		}
		return c.printJSON(struct {
			ID         string `json:"id"`
			Name       string `json:"name"`
			OwnerEmail string `json:"ownerEmail"`
		}{w.ID, w.Name, w.OwnerEmail})
	}, &app)
}
