// Command creatorapi serves the public API, the operator API and the workers, and
// carries the operator CLI. Logs go to stderr; stdout carries only command output.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: creatorapi <command> [flags]

  serve                     run the public API (CREATORAPI_HTTP_ADDR) and the operator API (CREATORAPI_ADMIN_ADDR)
  demo                      seed a demo workspace once, print a key and curl examples, then serve
  migrate                   apply database migrations and exit
  version                   print the build's version, revision and Go version
  healthcheck [--url U]     exit 0 when /readyz answers 200 (the container's HEALTHCHECK)
  workspace create --name N --owner-email E
  key create --workspace ORG --name N --scopes s1,s2 [--per-minute N --per-day N] [--test]
  key list --workspace ORG
  key revoke --workspace ORG KEY_ID
  events failed [--consumer C]            list events consumers parked after failing (JSON)
  events replay [--consumer C] [EVENT_ID] run parked events through their consumer again
  projections rebuild [--force]           rebuild the analytics read model from the outbox's events
  webhook create --workspace ORG --url U --events t1,t2 [--test]
  webhook list --workspace ORG
  webhook disable|enable --workspace ORG WEBHOOK_ID
  dashboard link --workspace ORG [--email E]   print a one-time dashboard sign-in link (JSON)
  backup --out FILE                       one file: an online copy of the database, the master key, a manifest (0600)
  restore --in FILE                       check a backup and restore it into an empty data folder or database
  secret-key rotate                       new master key (CREATORAPI_NEW_SECRET_KEY or generated), secrets re-sealed
  trigger TYPE --base-url URL --api-key svc_test_... [--format json]  produce event TYPE in the key's sandbox

Client verbs (the public API only, no database):
  listen --base-url URL --api-key KEY --forward-to URL [--events t1,t2] [--since now|2h|earliest|evt_...]
         [--secret whsec_...] [--state FILE] [--route type=URL]... [--format json]
                                          forward the events feed to a local receiver, signed as deliveries
  sign --secret whsec_... --type T [--data FILE] [--at unix]   print a signed delivery of T (a receiver's tests)

Configuration comes from CREATORAPI_* environment variables (see README.md).
`

func run(args []string, stdout, stderr io.Writer) int {
	return (&CLI{stdout: stdout, stderr: stderr, getenv: os.Getenv}).run(args)
}

// run runs one command line and returns the process's exit code.
func (c *CLI) run(args []string) int {
	stdout, stderr := c.stdout, c.stderr
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = c.serve(false)
	case "demo":
		err = c.serve(true)
	case "migrate":
		err = c.migrate()
	case "version":
		err = c.version(args[1:])
	case "healthcheck":
		err = c.healthcheck(args[1:])
	case "workspace":
		err = c.workspace(args[1:])
	case "key":
		err = c.key(args[1:])
	case "events":
		err = c.events(args[1:])
	case "projections":
		err = c.projections(args[1:])
	case "webhook":
		err = c.webhook(args[1:])
	case "dashboard":
		err = c.dashboard(args[1:])
	case "backup":
		err = c.backup(args[1:])
	case "restore":
		err = c.restore(args[1:])
	case "secret-key":
		err = c.secretKey(args[1:])
	case "listen":
		err = c.listen(args[1:])
	case "sign":
		err = c.sign(args[1:])
	case "trigger":
		err = c.trigger(args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "creatorapi:", err)
		if _, ok := err.(usageError); ok {
			return 2
		}
		return 1
	}
	return 0
}

// usageError is a mistake in the command line.
type usageError string

func (e usageError) Error() string { return string(e) }
