package main

import (
	"context"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// secretKey runs `secret-key rotate`: a new master key, every webhook signing secret
// re-sealed under it and the key check replaced, in one transaction. The new key comes
// from CREATORAPI_NEW_SECRET_KEY or is generated. Stop every instance first: one still
// running with the old key cannot open the re-sealed secrets (docs/operations.md).
func (c *CLI) secretKey(args []string) error {
	if len(args) != 1 || args[0] != "rotate" {
		return usageError("usage: creatorapi secret-key rotate   (new key from CREATORAPI_NEW_SECRET_KEY, or generated)")
	}
	next, err := compose.ParseNewSecretKey(c.getenv("CREATORAPI_NEW_SECRET_KEY"))
	if err != nil {
		return err
	}
	var rotation *compose.KeyRotation
	return c.withModules(func(ctx context.Context) error {
		// Starting the modules checked the current key against the database.
		out, err := rotation.Rotate(ctx, next)
		if err != nil {
			return err
		}
		return c.printJSON(out)
	}, &rotation)
}
