package webhooks

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Sealer seals signing secrets at rest, bound to their owner's id (secrets.Box), as the
// SQL twin's Sealer.
type Sealer interface {
	Seal(owner string, plain []byte) ([]byte, error)
	Open(owner string, sealed []byte) ([]byte, error)
}

// sealedPair is an endpoint's secrets as stored: current and previous (nil when none).
type sealedPair struct{ current, previous []byte }

// ownerBound is the sealer of a store nobody gave a key: the bytes are the owner's id
// and the secret, so that they open for their own endpoint only (like a Box) and a
// master-key rotation still has something to move.
type ownerBound struct{}

func (ownerBound) Seal(owner string, plain []byte) ([]byte, error) {
	return append([]byte(owner+"\x00"), plain...), nil
}

func (ownerBound) Open(owner string, sealed []byte) ([]byte, error) {
	plain, ok := bytes.CutPrefix(sealed, []byte(owner+"\x00"))
	if !ok {
		return nil, errors.New("sealed for another owner or under another key")
	}
	return bytes.Clone(plain), nil
}

// SealWith makes box the store's sealer (the service's webhook-secrets box, so that a
// master-key rotation opens what the twin sealed). Only an empty store takes one: what
// it holds was sealed by the sealer it had.
func (s *Store) SealWith(box Sealer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.sealed) > 0 {
		return errors.New("memory webhooks: the store holds sealed secrets already")
	}
	s.box = box
	return nil
}

// seal returns the sealed secrets of sub; the caller holds the lock.
func (s *Store) seal(sub *webhooks.Subscription) (sealedPair, error) {
	current, err := s.box.Seal(sub.ID, []byte(sub.Secret.String()))
	if err != nil {
		return sealedPair{}, fmt.Errorf("seal the secret of %s: %w", sub.ID, err)
	}
	var previous []byte
	if sub.Previous != nil {
		if previous, err = s.box.Seal(sub.ID, []byte(sub.Previous.String())); err != nil {
			return sealedPair{}, fmt.Errorf("seal the previous secret of %s: %w", sub.ID, err)
		}
	}
	return sealedPair{current: current, previous: previous}, nil
}

// keep stores sub without its secrets (they live sealed, in s.sealed); the caller holds
// the lock.
func (s *Store) keep(sub *webhooks.Subscription, sealed sealedPair) {
	stored := cloneSubscription(sub)
	stored.Secret, stored.Previous, stored.SecretUnreadable = webhooks.Secret{}, nil, false
	s.subs[sub.ID] = stored
	s.sealed[sub.ID] = sealed
}

// opened copies the stored sub with its secrets opened, or marked SecretUnreadable when
// they do not open (as the SQL twin reads a row); the caller holds the lock.
func (s *Store) opened(sub *webhooks.Subscription) *webhooks.Subscription {
	out := cloneSubscription(sub)
	sealed := s.sealed[sub.ID]
	secret, err := s.open(sub.ID, sealed.current)
	if err != nil {
		out.SecretUnreadable = true
		return out
	}
	out.Secret = secret
	if sealed.previous != nil {
		prev, err := s.open(sub.ID, sealed.previous)
		if err != nil {
			out.Secret, out.SecretUnreadable = webhooks.Secret{}, true
			return out
		}
		out.Previous = &prev
	}
	return out
}

func (s *Store) open(owner string, sealed []byte) (webhooks.Secret, error) {
	plain, err := s.box.Open(owner, sealed)
	if err != nil {
		return webhooks.Secret{}, err
	}
	return webhooks.ParseSecret(string(plain))
}
