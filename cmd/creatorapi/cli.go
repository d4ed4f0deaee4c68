package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// CLI runs one command against the service's modules.
type CLI struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	observe        []fx.Option // added to every graph the CLI builds: tests watch it start
}

const startTimeout = 2 * time.Minute

// withModules starts the modules (migrating the database), fills targets, runs fn, stops.
func (c *CLI) withModules(fn func(ctx context.Context) error, targets ...any) error {
	cfg, err := compose.LoadConfig(c.getenv)
	if err != nil {
		return err
	}
	app := fx.New(append([]fx.Option{compose.Modules(cfg), fx.Populate(targets...)}, c.observe...)...)
	if err := app.Err(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := app.Start(ctx); err != nil {
		return err
	}
	// The audit log names the CLI as the actor of what a command changes.
	runErr := fn(platform.WithActor(ctx, platform.Actor{Name: "CLI"}))
	stopCtx, stopCancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer stopCancel()
	if err := app.Stop(stopCtx); err != nil && runErr == nil {
		runErr = err
	}
	return runErr
}

func (c *CLI) migrate() error {
	return c.withModules(func(context.Context) error {
		fmt.Fprintln(c.stderr, "migrations applied")
		return nil
	})
}

// printJSON writes v as one JSON object on stdout.
func (c *CLI) printJSON(v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// parseFlags parses flags that may come before or after positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError(fmt.Sprintf("%s: %v", fs.Name(), err))
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

func required(name, value string) error {
	if value == "" {
		return usageError("--" + name + " is required")
	}
	return nil
}

// workspaceCommand parses `--workspace ORG` and, when idName is not empty, exactly one
// positional id, as the list, revoke, disable and enable commands take them.
func workspaceCommand(name, idName string, args []string) (workspaceID, id string, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	ws := fs.String("workspace", "", "workspace id (org_...)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", "", err
	}
	if err := required("workspace", *ws); err != nil {
		return "", "", err
	}
	usage := "usage: creatorapi " + name + " --workspace ORG"
	if idName == "" {
		if len(pos) != 0 {
			return "", "", usageError(usage)
		}
		return *ws, "", nil
	}
	if len(pos) != 1 {
		return "", "", usageError(usage + " " + idName)
	}
	return *ws, pos[0], nil
}
