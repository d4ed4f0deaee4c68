package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// RecordEnrollmentRevoked reacts to enrollment.revoked: the entitlements that granted the
// enrollment show its revocation, whoever revoked it.
type RecordEnrollmentRevoked struct {
	WorkspaceID  string
	EnrollmentID string
	RevokedAt    time.Time
}

// RecordEnrollmentRevoked is idempotent: an entitlement already revoked (by the order's own full refund,
// or an earlier delivery of the event) is left as it is. It emits nothing: no public
// event type describes an entitlement.
func (d Deps) RecordEnrollmentRevoked(ctx context.Context, cmd RecordEnrollmentRevoked) (struct{}, error) {
	ids, err := d.Repo.WithEnrollment(ctx, cmd.WorkspaceID, cmd.EnrollmentID)
	if err != nil {
		return struct{}{}, err
	}
	for _, id := range ids {
		_, _, err := platform.ChangeIf(ctx, d.Repo, cmd.WorkspaceID, id, func(o *orders.Order) (bool, error) {
			return o.RevokeEntitlement(cmd.EnrollmentID, cmd.RevokedAt), nil
		})
		if err != nil {
			return struct{}{}, fmt.Errorf("record revocation on order %s: %w", id, err)
		}
	}
	return struct{}{}, nil
}
