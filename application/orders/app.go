// Package orders is the application service of paid orders and refunds.
package orders

import (
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	PlaceOrder              platform.Handler[command.PlaceOrder, query.Order]
	RefundOrder             platform.Handler[command.RefundOrder, query.Order]
	RecordEnrollmentRevoked platform.Handler[command.RecordEnrollmentRevoked, struct{}]
}

// Queries read state. FirstActivity is the module's published query (the analytics
// rebuild guard, the analytics module's CheckRebuild, asks it).
type Queries struct {
	ListOrders    platform.Handler[query.ListOrders, platform.Page[query.Order]]
	GetOrder      platform.Handler[query.GetOrder, query.Order]
	FirstActivity platform.Handler[struct{}, platform.Earliest]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps, published query.Published) Application {
	reads := query.Reads{ReadModel: d.ReadModel}
	return Application{
		Commands: Commands{
			PlaceOrder:              platform.Command("place order", d.Tx, d.Observer, d.PlaceOrder),
			RefundOrder:             platform.Command("refund order", d.Tx, d.Observer, d.RefundOrder),
			RecordEnrollmentRevoked: platform.Command("record enrollment revoked", d.Tx, d.Observer, d.RecordEnrollmentRevoked),
		},
		Queries: Queries{
			ListOrders:    platform.Query("list orders", d.Observer, reads.ListOrders),
			GetOrder:      platform.Query("get order", d.Observer, reads.GetOrder),
			FirstActivity: platform.Query("first order activity", d.Observer, platform.EarliestFunc(published.FirstActivity).Handle),
		},
	}
}
