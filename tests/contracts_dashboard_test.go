package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The members and audit modules' ports meet one contract each on memory, SQLite and
// PostgreSQL.

func TestContractMemberRows(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.MemberRows(t, testenv.MemberAdapters(set, url))
	})
}

func TestContractSignInState(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.SignInState(t, testenv.MemberAdapters(set, url))
	})
}

func TestContractAuditLog(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.Audit(t, testenv.AuditAdapters(set, url))
	})
}
