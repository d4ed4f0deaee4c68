package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The students module's ports meet one contract each, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractStudentRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.StudentRepository(t, testenv.StudentAdapters(set, url))
	})
}

func TestContractStudentReads(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.StudentReads(t, testenv.StudentAdapters(set, url))
	})
}
