package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The enrollments module's ports meet one contract each, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractEnrollmentRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.EnrollmentRepository(t, testenv.EnrollmentAdapters(set, url))
	})
}

func TestContractEnrollmentProgress(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.EnrollmentProgress(t, testenv.EnrollmentAdapters(set, url))
	})
}

func TestContractEnrollmentReads(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.EnrollmentReads(t, testenv.EnrollmentAdapters(set, url))
	})
}
