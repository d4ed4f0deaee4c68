package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/cli/listen"
)

// routes collects repeated --route 'type=URL' flags.
type routes map[string]string

func (r routes) String() string { return "" }

func (r routes) Set(v string) error {
	t, u, ok := strings.Cut(v, "=")
	if !ok || t == "" || u == "" {
		return usageError("--route must be type=URL")
	}
	r[strings.TrimSpace(t)] = strings.TrimSpace(u)
	return nil
}

// listen forwards the events feed of a running service to local receivers; it uses the
// public API only (ports/cli/listen), no database and no CREATORAPI_* configuration.
func (c *CLI) listen(args []string) error {
	fs := flag.NewFlagSet("listen", flag.ContinueOnError)
	var o listen.Options
	rs := routes{}
	fs.StringVar(&o.BaseURL, "base-url", "", "the service's base URL (https://...)")
	fs.StringVar(&o.APIKey, "api-key", "", "an API key with read:events")
	fs.StringVar(&o.ForwardTo, "forward-to", "", "the receiver's URL")
	events := fs.String("events", "", "types to forward, comma-separated (default all)")
	fs.StringVar(&o.Since, "since", "now", "where to start without a saved cursor: now, earliest, 2h, evt_...")
	fs.StringVar(&o.Secret, "secret", "", "sign with this whsec_... secret (default: one generated and kept in the state file)")
	fs.StringVar(&o.StateFile, "state", "", "state file (default "+listen.DefaultStateFile()+")")
	fs.Var(rs, "route", "type=URL: forward that type there (repeatable)")
	format := fs.String("format", "", "json: one JSON object per line")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError("usage: creatorapi listen --base-url URL --api-key KEY --forward-to URL [--events t1,t2] [--since now|2h|earliest|evt_...] [--secret whsec_...] [--state FILE] [--route type=URL]... [--format json]")
	}
	if *events != "" {
		o.Events = strings.Split(*events, ",")
	}
	if len(rs) > 0 {
		o.Routes = rs
	}
	if *format != "" && *format != "json" {
		return usageError("--format must be json")
	}
	o.JSON = *format == "json"
	if err := o.Check(); err != nil {
		return usageError(err.Error())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l := &listen.Listener{Options: o, Sign: compose.DeliverySigner(), Out: c.stdout}
	return l.Run(ctx)
}

// sign prints a signed delivery of one type for a receiver's tests.
func (c *CLI) sign(args []string) error {
	fs := flag.NewFlagSet("sign", flag.ContinueOnError)
	var o listen.SignOptions
	fs.StringVar(&o.Secret, "secret", "", "the signing secret whsec_...")
	fs.StringVar(&o.Type, "type", "", "the event type")
	fs.StringVar(&o.DataFile, "data", "", "a file with the data object (default: the catalogue's example)")
	fs.Int64Var(&o.At, "at", 0, "unix seconds of the signature (default now)")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 || o.Secret == "" || o.Type == "" {
		return usageError("usage: creatorapi sign --secret whsec_... --type T [--data FILE] [--at unix]")
	}
	return listen.Sign(o, compose.DeliverySigner(), time.Now(), c.stdout)
}
