package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/creatorapi/creatorapi/ports/cli/trigger"
)

// trigger is a client verb: it needs no database, only a running service and a
// sandbox (svc_test_) key.
func (c *CLI) trigger(args []string) error {
	fs := flag.NewFlagSet("trigger", flag.ContinueOnError)
	baseURL := fs.String("base-url", "", "the service's base URL, e.g. http://localhost:8080")
	apiKey := fs.String("api-key", "", "a sandbox key (svc_test_...)")
	format := fs.String("format", "text", "text or json")
	positional, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usageError("usage: creatorapi trigger TYPE --base-url URL --api-key svc_test_...")
	}
	for flagName, v := range map[string]string{"base-url": *baseURL, "api-key": *apiKey} {
		if err := required(flagName, v); err != nil {
			return err
		}
	}
	if *format != "text" && *format != "json" {
		return usageError("--format must be text or json")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := trigger.Event(ctx, &http.Client{}, *baseURL, *apiKey, positional[0])
	if err != nil {
		return err
	}
	if *format == "json" {
		return c.printJSON(res)
	}
	_, err = fmt.Fprintf(c.stdout, "triggered %s (%s) in the sandbox\n", res.Type, res.ResourceID)
	return err
}
