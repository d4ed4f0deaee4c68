package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// backup runs `creatorapi backup --out FILE`: an online copy of the database with the
// master key and operator token, in one file (mode 0600), while the service keeps serving.
// It prints the manifest.
func (c *CLI) backup(args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	out := fs.String("out", "", "the backup file to write (it must not exist)")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError("usage: creatorapi backup --out FILE")
	}
	if err := required("out", *out); err != nil {
		return err
	}
	var source *compose.BackupSource
	return c.withModules(func(ctx context.Context) error {
		began := time.Now()
		m, err := source.Backup(ctx, *out)
		if err != nil {
			return err
		}
		info, err := os.Stat(*out)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "backup written to %s (%d bytes, %s); keep it as secret as the data folder: it holds the master key\n",
			*out, info.Size(), time.Since(began).Round(time.Millisecond))
		return c.printJSON(m)
	}, &source)
}

// restore runs `creatorapi restore --in FILE` into the configured data folder and database,
// which must be empty. It prints the manifest.
func (c *CLI) restore(args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	in := fs.String("in", "", "the backup file to restore")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		return usageError("usage: creatorapi restore --in FILE")
	}
	if err := required("in", *in); err != nil {
		return err
	}
	cfg, err := compose.LoadConfig(c.getenv)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	m, err := compose.Restore(ctx, cfg, *in)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "restored %s backup of %s (schema version %d); start the service on this data folder\n",
		m.Database, m.CreatedAt.Format(time.RFC3339), m.SchemaVersion)
	return c.printJSON(m)
}
