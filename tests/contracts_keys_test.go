package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The keys module's ports meet one contract each, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractKeyRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.KeyRepository(t, testenv.KeyAdapters(set, url))
	})
}

func TestContractKeyUsage(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.KeyUsage(t, testenv.KeyAdapters(set, url))
	})
}
