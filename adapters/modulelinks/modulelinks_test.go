package modulelinks_test

import (
	"context"
	"maps"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"github.com/creatorapi/creatorapi/application/courses"
	coursequery "github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentquery "github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// catalog answers FindCourses from a fixed set of courses.
func catalog(facts ...coursequery.CourseFacts) courses.Application {
	var app courses.Application
	app.Queries.FindCourses = platform.HandlerFunc[coursequery.FindCourses, map[string]coursequery.CourseFacts](
		func(_ context.Context, q coursequery.FindCourses) (map[string]coursequery.CourseFacts, error) {
			out := map[string]coursequery.CourseFacts{}
			for _, f := range facts {
				for _, id := range q.IDs {
					if f.ID == id {
						out[id] = f
					}
				}
			}
			return out, nil
		})
	return app
}

// Orders sell only published courses: a draft among the ids is not sellable.
func TestOrderCatalogOffersOnlyPublishedCourses(t *testing.T) {
	app := catalog(coursequery.CourseFacts{ID: "crs_1", Title: "Live", Status: string(domaincourses.Published)},
		coursequery.CourseFacts{ID: "crs_2", Title: "Draft", Status: string(domaincourses.Draft)})
	got, err := modulelinks.OrderCatalog{App: app}.PublishedTitles(context.Background(), "org_1", []string{"crs_1", "crs_2", "crs_3"})
	if want := map[string]string{"crs_1": "Live"}; err != nil || !maps.Equal(got, want) {
		t.Fatalf("PublishedTitles = %v, %v; want %v", got, err, want)
	}
	if _, err := (modulelinks.EnrollmentCatalog{App: app}).Course(context.Background(), "org_1", "crs_3"); !kernel.IsNotFound(err) {
		t.Fatalf("an unknown course: %v, want NotFound", err)
	}
}

// A certificate asks for the pair's enrollment: the owner's NotFound means "none", any
// other error stays an error.
func TestCertificateCompletionsMapsNotFoundToNone(t *testing.T) {
	var app enrollments.Application
	app.Queries.FindEnrollmentOfPair = platform.HandlerFunc[enrollmentquery.FindEnrollmentOfPair, enrollmentquery.Facts](
		func(_ context.Context, q enrollmentquery.FindEnrollmentOfPair) (enrollmentquery.Facts, error) {
			if q.StudentID == "stu_enrolled" {
				return enrollmentquery.Facts{ID: "enr_1", Status: "completed"}, nil
			}
			return enrollmentquery.Facts{}, kernel.NotFound("no enrollment")
		})
	links := modulelinks.CertificateCompletions{App: app}
	if c, err := links.Of(context.Background(), "org_1", "stu_other", "crs_1"); c != nil || err != nil {
		t.Fatalf("no enrollment: %+v, %v; want nil, nil", c, err)
	}
	if c, err := links.Of(context.Background(), "org_1", "stu_enrolled", "crs_1"); err != nil || c == nil || c.EnrollmentID != "enr_1" {
		t.Fatalf("the enrollment: %+v, %v", c, err)
	}
}
