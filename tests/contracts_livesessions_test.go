package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The live sessions module's ports meet one contract each, with identical expectations
// on memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractLiveSessionRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.LiveSessionRepository(t, testenv.LiveSessionAdapters(set, url))
	})
}

func TestContractLiveSessionRecordings(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.LiveSessionRecordings(t, testenv.LiveSessionAdapters(set, url))
	})
}
