// Package orders is the in-memory twin of adapters/sql/orders: the order repository, the
// read model and the published query on a memstore table and maps behind its lock. It
// keeps the same rules (an id and a receipt number per workspace are stored once; items
// never change once stored; an entitlement is stored once per course and only ever gains
// its revocation; history is append-only by sequence; receipt numbers are distinct and
// consecutive per workspace, concurrently too; NotFound outside the workspace) and passes
// the same contract suite (adapters/contracttest). It does not take part in transactions
// and takes no row locks: a rolled-back order keeps its receipt number here, so tests of
// rollbacks and of Get's lock run on the databases.
package orders

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/adapters/memory/memstore"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// Store holds the data; Repository and Reads are its ports.
type Store struct {
	orders   *memstore.Table[*orders.Order]
	receipts map[string]int64 // last number, by workspace; guarded by the orders' lock
}

// New returns an empty store.
func New() *Store {
	scope := func(o *orders.Order) string { return o.WorkspaceID }
	return &Store{orders: memstore.New("order", scope, clone), receipts: map[string]int64{}}
}

// Repository implements orders.Repository.
type Repository struct{ *Store }

// Reads implements query.ReadModel and query.Published.
type Reads struct{ *Store }

// Repository is the store's aggregate repository.
func (s *Store) Repository() Repository { return Repository{s} }

// Reads is the store's read model and published query.
func (s *Store) Reads() Reads { return Reads{s} }

// clone copies the aggregate so that callers never share memory with the store.
func clone(o *orders.Order) *orders.Order {
	out := *o
	out.PaidAt, out.CreatedAt, out.UpdatedAt = o.PaidAt.UTC(), o.CreatedAt.UTC(), o.UpdatedAt.UTC()
	out.RefundedAt = platform.UTCPtr(o.RefundedAt)
	out.Items = slices.Clone(o.Items)
	out.Entitlements = nil
	for _, e := range o.Entitlements {
		e.GrantedAt, e.RevokedAt = e.GrantedAt.UTC(), platform.UTCPtr(e.RevokedAt)
		out.Entitlements = append(out.Entitlements, e)
	}
	out.History = nil
	for _, h := range o.History {
		h.At = h.At.UTC()
		out.History = append(out.History, h)
	}
	return &out
}

// Add stores a new order with its items, entitlements and history.
func (r Repository) Add(_ context.Context, o *orders.Order) error {
	r.orders.Lock()
	defer r.orders.Unlock()
	if _, taken := r.orders.Rows[o.ID]; taken {
		return fmt.Errorf("insert order: id %s exists", o.ID) // a primary key violation
	}
	for _, other := range r.orders.Rows {
		if other.WorkspaceID == o.WorkspaceID && other.ReceiptNumber == o.ReceiptNumber {
			// the unique (workspace_id, receipt_number) constraint
			return fmt.Errorf("insert order: receipt %s of workspace %s exists", o.ReceiptNumber, o.WorkspaceID)
		}
	}
	stored := clone(o)
	stored.Entitlements, stored.History = nil, nil
	r.orders.Rows[o.ID] = stored
	saveChildren(stored, o)
	return nil
}

// saveChildren does what the SQL adapter's inserts do: an entitlement not stored for
// its course is added, a stored one only gains its revocation, history entries not
// stored by sequence are appended; entitlements keep the order of the items.
func saveChildren(stored, o *orders.Order) {
	given := clone(o)
	for _, e := range given.Entitlements {
		i := slices.IndexFunc(stored.Entitlements, func(s orders.Entitlement) bool { return s.CourseID == e.CourseID })
		switch {
		case i < 0:
			stored.Entitlements = append(stored.Entitlements, e)
		case stored.Entitlements[i].RevokedAt == nil:
			stored.Entitlements[i].RevokedAt = e.RevokedAt
		}
	}
	position := func(courseID string) int {
		return slices.IndexFunc(stored.Items, func(it orders.Item) bool { return it.CourseID == courseID })
	}
	sort.SliceStable(stored.Entitlements, func(a, b int) bool {
		return position(stored.Entitlements[a].CourseID) < position(stored.Entitlements[b].CourseID)
	})
	for _, h := range given.History {
		if !slices.ContainsFunc(stored.History, func(s orders.Entry) bool { return s.Seq == h.Seq }) {
			stored.History = append(stored.History, h)
		}
	}
	sort.SliceStable(stored.History, func(a, b int) bool { return stored.History[a].Seq < stored.History[b].Seq })
}

// Get loads the aggregate, or NotFound.
func (r Repository) Get(_ context.Context, workspaceID, id string) (*orders.Order, error) {
	return r.orders.Get(workspaceID, id)
}

// Update saves the order's state, revocations of entitlements and new history entries.
func (r Repository) Update(_ context.Context, o *orders.Order) error {
	r.orders.Update(o.WorkspaceID, o.ID, func(stored *orders.Order) {
		stored.Status, stored.AmountRefunded = o.Status, o.AmountRefunded
		stored.RefundedAt, stored.UpdatedAt = platform.UTCPtr(o.RefundedAt), o.UpdatedAt.UTC()
		saveChildren(stored, o)
	})
	return nil
}

// NextReceipt draws the workspace's next receipt sequence number.
func (r Repository) NextReceipt(_ context.Context, workspaceID string) (int64, error) {
	r.orders.Lock()
	defer r.orders.Unlock()
	r.receipts[workspaceID]++
	return r.receipts[workspaceID], nil
}

// WithEnrollment lists the ids of the orders holding an entitlement to enrollmentID.
func (r Repository) WithEnrollment(_ context.Context, workspaceID, enrollmentID string) ([]string, error) {
	r.orders.RLock()
	defer r.orders.RUnlock()
	var ids []string
	for _, o := range r.orders.Rows {
		if o.WorkspaceID == workspaceID && slices.ContainsFunc(o.Entitlements, func(e orders.Entitlement) bool { return e.EnrollmentID == enrollmentID }) {
			ids = append(ids, o.ID)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// LiveGrantsElsewhere counts the unrevoked entitlements to enrollmentID of other orders.
func (r Repository) LiveGrantsElsewhere(_ context.Context, workspaceID, enrollmentID, orderID string) (int, error) {
	r.orders.RLock()
	defer r.orders.RUnlock()
	n := 0
	for _, o := range r.orders.Rows {
		if o.WorkspaceID != workspaceID || o.ID == orderID {
			continue
		}
		for _, e := range o.Entitlements {
			if e.EnrollmentID == enrollmentID && e.RevokedAt == nil {
				n++
			}
		}
	}
	return n, nil
}

// List returns one keyset page of orders, newest first (as on the databases).
func (r Reads) List(_ context.Context, workspaceID string, f query.Filters, page platform.PageRequest) (platform.Page[*orders.Order], error) {
	return r.orders.Page(func(o *orders.Order) bool { return o.WorkspaceID == workspaceID && matches(o, f) }, page,
		func(o *orders.Order) platform.Position { return platform.Position{CreatedAt: o.CreatedAt, ID: o.ID} }), nil
}

// matches applies the filters as the SQL adapter's WHERE does.
func matches(o *orders.Order, f query.Filters) bool {
	return (f.Status == "" || string(o.Status) == f.Status) &&
		(f.StudentID == "" || o.StudentID == f.StudentID) &&
		(f.CreatedSince == nil || !o.CreatedAt.Before(*f.CreatedSince)) &&
		(f.CreatedBefore == nil || o.CreatedAt.Before(*f.CreatedBefore)) &&
		(f.UpdatedSince == nil || !o.UpdatedAt.Before(*f.UpdatedSince))
}

// Get returns the order or NotFound.
func (r Reads) Get(ctx context.Context, workspaceID, id string) (*orders.Order, error) {
	return Repository(r).Get(ctx, workspaceID, id)
}

// FirstActivity returns the earliest payment or refund, any workspace.
func (r Reads) FirstActivity(context.Context) (time.Time, bool, error) {
	return r.orders.Earliest(func(o *orders.Order, consider func(time.Time)) {
		consider(o.PaidAt)
		for _, h := range o.History {
			consider(h.At)
		}
	})
}

// The ports, checked at compile time.
var (
	_ orders.Repository = Repository{}
	_ query.ReadModel   = Reads{}
	_ query.Published   = Reads{}
)
