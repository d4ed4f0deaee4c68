package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The orders module's ports meet one contract each, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractOrderRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.OrderRepository(t, testenv.OrderAdapters(set, url))
	})
}

func TestContractOrderReads(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.OrderReads(t, testenv.OrderAdapters(set, url))
	})
}
