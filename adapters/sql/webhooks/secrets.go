package webhooks

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Secrets publishes the endpoints' sealed signing secrets to the platform's master key
// (application/webhooks.SealedSecrets): the bytes stay sealed, the caller opens and seals
// them with its keys, in its own transaction.
type Secrets struct {
	db                     *sqldb.DB
	sample, sealed, reseal string
}

// NewSecrets prepares the statements for db's dialect.
func NewSecrets(db *sqldb.DB) *Secrets {
	return &Secrets{
		db:     db,
		sample: db.Rebind(`SELECT id, secret_sealed FROM webhook_subscriptions ORDER BY created_at DESC, id DESC LIMIT ?`),
		sealed: `SELECT id, workspace_id, secret_sealed, previous_sealed, receiver_sealed FROM webhook_subscriptions ORDER BY id` + db.ForUpdate(),
		reseal: db.Rebind(`UPDATE webhook_subscriptions SET secret_sealed = ?, previous_sealed = ?, receiver_sealed = ? WHERE workspace_id = ? AND id = ?`),
	}
}

// OpensAny tells whether open opens at least one of the newest n sealed secrets, or
// there are none.
func (s *Secrets) OpensAny(ctx context.Context, n int, open func(owner string, sealed []byte) bool) (bool, error) {
	var rows []struct {
		ID     string `db:"id"`
		Sealed []byte `db:"secret_sealed"`
	}
	if err := s.db.Read(ctx).SelectContext(ctx, &rows, s.sample, n); err != nil {
		return false, fmt.Errorf("read sealed secrets: %w", err)
	}
	for _, r := range rows {
		if open(r.ID, r.Sealed) {
			return true, nil
		}
	}
	return len(rows) == 0, nil
}

// ResealAll replaces every endpoint's sealed secrets (current, previous, receiver) by reseal's
// answer, the rows locked until the transaction of ctx ends. An endpoint whose secrets
// reseal refuses keeps its bytes and is listed in unreadable.
func (s *Secrets) ResealAll(ctx context.Context, reseal func(owner string, sealed []byte) ([]byte, error)) (resealed int, unreadable []string, err error) {
	var rows []struct {
		ID             string `db:"id"`
		WorkspaceID    string `db:"workspace_id"`
		SecretSealed   []byte `db:"secret_sealed"`
		PreviousSealed []byte `db:"previous_sealed"`
		ReceiverSealed []byte `db:"receiver_sealed"`
	}
	if err := s.db.Write(ctx).SelectContext(ctx, &rows, s.sealed); err != nil {
		return 0, nil, fmt.Errorf("read sealed secrets: %w", err)
	}
	unreadable = []string{}
	for _, row := range rows {
		current, err := reseal(row.ID, row.SecretSealed)
		var previous []byte
		if err == nil && row.PreviousSealed != nil {
			previous, err = reseal(row.ID, row.PreviousSealed)
		}
		var receiver []byte // the receiver's headers and credentials, under their own owner
		if err == nil && row.ReceiverSealed != nil {
			receiver, err = reseal(receiverOwner(row.ID), row.ReceiverSealed)
		}
		if err != nil {
			unreadable = append(unreadable, row.ID)
			continue
		}
		if _, err := s.db.Write(ctx).ExecContext(ctx, s.reseal, current, previous, receiver, row.WorkspaceID, row.ID); err != nil {
			return 0, nil, fmt.Errorf("re-seal the secret of %s: %w", row.ID, err)
		}
		resealed++
	}
	return resealed, unreadable, nil
}
