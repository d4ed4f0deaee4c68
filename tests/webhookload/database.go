package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jmoiron/sqlx"
)

// freshDatabase creates a database of its own on the server at base (so that the
// server's per-database counters count this run alone) and returns its URL and a
// function that drops it.
// With logStatements every statement of the run is written to the server's log
// with its duration (log_min_duration_statement = 0 for this database alone), to count
// them by kind and add up their time. With keep the database stays (drop names it).
func freshDatabase(ctx context.Context, base string, logStatements, keep bool) (string, func(), error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "webhookload_" + hex.EncodeToString(b[:])
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	if logStatements {
		// Each statement with its duration (count the "execute" and "statement:" lines;
		// the extended protocol also logs "parse" and "bind").
		if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+name+" SET log_min_duration_statement = 0"); err != nil {
			admin.Close()
			return "", nil, fmt.Errorf("log statements: %w", err)
		}
		fmt.Printf("webhookload: statements of database %s go to the server log\n", name)
	}
	drop := func() {
		if keep {
			fmt.Printf("webhookload: kept database %s\n", name)
			admin.Close()
			return
		}
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		admin.Close()
	}
	u, err := url.Parse(base)
	if err != nil {
		drop()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}
