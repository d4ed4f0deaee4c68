package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The courses module's ports meet one contract each, with identical expectations on
// memory, SQLite and PostgreSQL (adapters/contracttest).

func TestContractCourseRepository(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.CourseRepository(t, testenv.CourseAdapters(set, url))
	})
}

func TestContractCourseReadModel(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.CourseReadModel(t, testenv.CourseAdapters(set, url))
	})
}

func TestContractCourseCatalog(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.CourseCatalog(t, testenv.CourseAdapters(set, url))
	})
}
