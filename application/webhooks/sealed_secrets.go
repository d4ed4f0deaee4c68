package webhooks

import "context"

// SealedSecrets is the module's published port over its endpoints' signing secrets at
// rest, for the platform's master key (the composition root wires it into the master-key
// store): the bytes stay sealed, the caller opens and seals them with its own keys. Both
// methods work in the caller's transaction, so a rotation moves every secret to the new
// key or none.
type SealedSecrets interface {
	// OpensAny tells whether open opens at least one of the newest n sealed secrets, or
	// there are none (a key proves itself on a database from before the key check).
	OpensAny(ctx context.Context, n int, open func(owner string, sealed []byte) bool) (bool, error)
	// ResealAll replaces every secret by reseal's answer, locked until the transaction
	// ends; an endpoint whose secret reseal refuses keeps its bytes and is listed.
	ResealAll(ctx context.Context, reseal func(owner string, sealed []byte) ([]byte, error)) (resealed int, unreadable []string, err error)
}
