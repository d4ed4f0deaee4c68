package platform_test

import (
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestVersionsProductionDeprecatesNothing(t *testing.T) {
	v, err := platform.DefaultVersions()
	if err != nil {
		t.Fatal(err)
	}
	if v.Deprecates() {
		t.Fatal("v1 has no successor: nothing may be deprecated")
	}
	if _, ok := v.Of("GET /api/v1/courses"); ok {
		t.Fatal("a v1 route carries a deprecation notice")
	}
	if got := v.Current(day("2030-01-01")).Number; got != 1 {
		t.Fatalf("current major %d, want 1", got)
	}
}

func TestVersionsSunsetIsTheSuccessorsReleasePlusSixMonths(t *testing.T) {
	v, err := platform.NewVersions([]platform.Major{
		{Number: 1, Released: day("2026-11-01"), Payload: platform.RenderV1, Migration: "https://example.com/v2"},
		{Number: 2, Released: day("2027-03-01"), Payload: platform.RenderV1},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, ok := v.Of("GET /api/v1/courses/{id}")
	if !ok || !n.Since.Equal(day("2027-03-01")) || !n.Sunset.Equal(day("2027-09-01")) || n.Link != "https://example.com/v2" {
		t.Fatalf("v1's notice %+v (%v), want since 2027-03-01, sunset 2027-09-01", n, ok)
	}
	if _, ok := v.Of("GET /api/v2/courses"); ok {
		t.Fatal("v2 is not deprecated")
	}
	if got := v.Current(day("2027-02-28")).Number; got != 1 {
		t.Fatalf("current major before v2's release: %d", got)
	}
	if got := v.Current(day("2027-03-01")).Number; got != 2 {
		t.Fatalf("current major at v2's release: %d", got)
	}
}

func TestVersionsRefuseInconsistentDates(t *testing.T) {
	v1 := platform.Major{Number: 1, Released: day("2026-11-01"), Payload: platform.RenderV1, Migration: "https://example.com/v2"}
	route := platform.Deprecation{Route: "GET /api/v1/courses", Since: day("2027-01-01"), Sunset: day("2027-04-01"), Migration: "https://example.com/m"}
	cases := []struct {
		name         string
		majors       []platform.Major
		deprecations []platform.Deprecation
		want         string
	}{
		{"a route's sunset before its deprecation", []platform.Major{v1}, []platform.Deprecation{
			{Route: route.Route, Since: day("2027-04-01"), Sunset: day("2027-01-01"), Migration: route.Migration}}, "earlier than the deprecation"},
		{"a major's sunset inside the six months", []platform.Major{
			{Number: 1, Released: v1.Released, Payload: v1.Payload, Migration: v1.Migration, Sunset: day("2027-05-01")},
			{Number: 2, Released: day("2027-03-01"), Payload: platform.RenderV1}}, nil, "plus 6 months"},
		{"a sunset without a successor", []platform.Major{
			{Number: 1, Released: v1.Released, Payload: v1.Payload, Sunset: day("2028-01-01")}}, nil, "no successor"},
		{"a major without a payload renderer", []platform.Major{{Number: 1, Released: v1.Released}}, nil, "payload renderer"},
		{"a route of no known major", []platform.Major{v1}, []platform.Deprecation{
			{Route: "GET /api/v3/courses", Since: route.Since, Sunset: route.Sunset, Migration: route.Migration}}, "no known major"},
		{"a deprecation without a migration page", []platform.Major{v1}, []platform.Deprecation{
			{Route: route.Route, Since: route.Since, Sunset: route.Sunset}}, "migration page"},
		{"majors out of order", []platform.Major{{Number: 2, Released: v1.Released, Payload: v1.Payload}}, nil, "where v1 belongs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := platform.NewVersions(c.majors, c.deprecations)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error saying %q, got %v", c.want, err)
			}
		})
	}
	v, err := platform.NewVersions([]platform.Major{v1}, []platform.Deprecation{route})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := v.Of(route.Route); !ok || !n.Sunset.Equal(route.Sunset) {
		t.Fatalf("the route's notice %+v (%v)", n, ok)
	}
	if _, ok := v.Of("POST /api/v1/courses"); ok {
		t.Fatal("another method of the path is not deprecated")
	}
}
