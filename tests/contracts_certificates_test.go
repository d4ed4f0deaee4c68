package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The certificates module's store meets one contract, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).
func TestContractCertificateStore(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.CertificateStore(t, testenv.CertificateAdapters(set, url))
	})
}
