package webhooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// receiverOwner binds an endpoint's sealed receiver to its id and to this column: sealed
// bytes copied into another row, or into the secret's column, do not open.
func receiverOwner(id string) string { return id + "#receiver" }

// openReceiver fills s.Receiver from its sealed JSON (nil: none), or marks it unreadable.
func (r sealing) openReceiver(s *webhooks.Subscription, sealed []byte) {
	rcv, err := r.receiver(s.ID, sealed)
	if err != nil {
		s.ReceiverUnreadable = true
		return
	}
	s.Receiver = rcv
}

func (r sealing) receiver(id string, sealed []byte) (webhooks.Receiver, error) {
	if len(sealed) == 0 {
		return webhooks.Receiver{}, nil
	}
	plain, err := r.box.Open(receiverOwner(id), sealed)
	if err != nil {
		return webhooks.Receiver{}, err
	}
	var rcv webhooks.Receiver
	if err := json.Unmarshal(plain, &rcv); err != nil {
		return webhooks.Receiver{}, fmt.Errorf("receiver of %s: %w", id, err)
	}
	return rcv, nil
}

// sealedReceiver is s.Receiver sealed (nil when empty).
func (r sealing) sealedReceiver(s *webhooks.Subscription) ([]byte, error) {
	if s.Receiver.Empty() {
		return nil, nil
	}
	plain, err := json.Marshal(s.Receiver)
	if err != nil {
		return nil, err
	}
	return r.box.Seal(receiverOwner(s.ID), plain)
}

// Receivers reads one endpoint's receiver for the dispatcher (which caches it briefly):
// the claim and the fan-out do not carry it, so that endpoints without one cost nothing.
type Receivers struct {
	sealing
	db  *sqldb.DB
	get string
}

// NewReceivers prepares the statement for db's dialect.
func NewReceivers(db *sqldb.DB, box Sealer) *Receivers {
	return &Receivers{sealing: sealing{box}, db: db,
		get: db.Rebind(`SELECT receiver_sealed FROM webhook_subscriptions WHERE workspace_id = ? AND id = ?`)}
}

// Receiver returns the endpoint's receiver; an error when it cannot be opened.
func (r *Receivers) Receiver(ctx context.Context, workspaceID, id string) (webhooks.Receiver, error) {
	var sealed []byte
	err := r.db.Read(ctx).GetContext(ctx, &sealed, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return webhooks.Receiver{}, kernel.NotFound("webhook %s not found", id)
	}
	if err != nil {
		return webhooks.Receiver{}, fmt.Errorf("read webhook receiver: %w", err)
	}
	rcv, err := r.receiver(id, sealed)
	if err != nil {
		return webhooks.Receiver{}, fmt.Errorf("the receiver headers and credentials of %s cannot be opened: %w", id, err)
	}
	return rcv, nil
}
