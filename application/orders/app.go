// Package orders is the application service of paid orders and refunds.
package orders

import (
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/orders/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	PlaceOrder              command.PlaceOrderHandler
	RefundOrder             command.RefundOrderHandler
	RecordEnrollmentRevoked command.RecordEnrollmentRevokedHandler
}

// Queries read state.
type Queries struct {
	ListOrders query.ListOrdersHandler
	GetOrder   query.GetOrderHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			PlaceOrder:              command.NewPlaceOrderHandler(d),
			RefundOrder:             command.NewRefundOrderHandler(d),
			RecordEnrollmentRevoked: command.NewRecordEnrollmentRevokedHandler(d),
		},
		Queries: Queries{
			ListOrders: query.NewListOrdersHandler(d.ReadModel),
			GetOrder:   query.NewGetOrderHandler(d.ReadModel),
		},
	}
}
