package tests

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/deprecations"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	domaindeprecations "github.com/creatorapi/creatorapi/domain/deprecations"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

const deprecatedRoute = "GET /api/v1/courses/{id}"

// callCounts is the number of calls per key and route, of the keys whose id starts with
// prefix ("" for every key).
func callCounts(calls map[string]domaindeprecations.Call, prefix string) map[string]int {
	n := map[string]int{}
	for k, c := range calls {
		if strings.HasPrefix(k, prefix) {
			n[k] = int(c.Calls)
		}
	}
	return n
}

// routeDeprecated is a registry in which v1 is current and one route is deprecated.
func routeDeprecated(t *testing.T, since, sunset time.Time) *platform.Versions {
	t.Helper()
	v, err := platform.NewVersions([]platform.Major{{Number: 1, Released: platform.V1Released, Payload: platform.RenderV1}},
		[]platform.Deprecation{{Route: deprecatedRoute, Since: since, Sunset: sunset, Migration: "https://docs.example.com/migrate/course-fetch"}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// deprecationEnv is a service with the given registry and a handle on the module.
type deprecationEnv struct {
	dashEnv
	App deprecations.Application
}

func startDeprecations(t *testing.T, dbURL string, versions *platform.Versions, extra ...fx.Option) deprecationEnv {
	t.Helper()
	var app deprecations.Application
	d := startDashboard(t, dbURL, "", append([]fx.Option{fx.Replace(versions), fx.Populate(&app)}, extra...)...)
	return deprecationEnv{dashEnv: d, App: app}
}

func (d deprecationEnv) flush(t *testing.T) {
	t.Helper()
	if _, err := d.App.Calls.Flush(context.Background()); err != nil {
		t.Fatalf("flush deprecated calls: %v", err)
	}
}

func (d deprecationEnv) calls(t *testing.T, ws string) map[string]domaindeprecations.Call {
	t.Helper()
	list, err := d.App.Queries.ListCalls.Handle(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]domaindeprecations.Call{}
	for _, c := range list {
		out[c.KeyID+" "+c.Route] = c
	}
	return out
}

func expectDeprecationHeaders(t *testing.T, r testenv.Response, since, sunset time.Time, link string) {
	t.Helper()
	want := map[string]string{
		"Deprecation": "@" + strconv.FormatInt(since.Unix(), 10),
		"Sunset":      sunset.UTC().Format(http.TimeFormat),
		"Link":        "<" + link + `>; rel="deprecation"`,
	}
	for name, value := range want {
		if got := r.Header.Get(name); got != value {
			t.Errorf("%d answer: %s = %q, want %q", r.Status, name, got, value)
		}
	}
	if _, err := http.ParseTime(r.Header.Get("Sunset")); err != nil {
		t.Errorf("Sunset is not an IMF-fixdate: %v", err)
	}
}

func TestDeprecatedRouteCarriesHeadersAndIsCountedPerKey(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		since, sunset := testenv.Epoch.Add(-24*time.Hour), testenv.Epoch.Add(60*24*time.Hour)
		env := startDeprecations(t, dbURL, routeDeprecated(t, since, sunset))
		ws := env.CreateWorkspace(t, "Academy")
		other := env.CreateWorkspace(t, "Other")
		course := env.CreatePublishedCourse(t, ws, "Watercolor")
		keyA, secretA := env.CreateKey(t, ws, "read:courses")
		keyB, secretB := env.CreateKey(t, ws, "read:courses")
		_, secretOther := env.CreateKey(t, other, "read:courses")
		link := "https://docs.example.com/migrate/course-fetch"

		expectDeprecationHeaders(t, env.API(secretA).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusOK), since, sunset, link)
		env.Clock.Set(testenv.Epoch.Add(time.Minute))
		// An error answer of the route is marked (and counted) too.
		expectDeprecationHeaders(t, env.API(secretA).Get(t, "/api/v1/courses/crs_unknown").Expect(t, http.StatusNotFound), since, sunset, link)
		expectDeprecationHeaders(t, env.API(secretB).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusOK), since, sunset, link)
		env.API(secretOther).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusNotFound)
		// The list is not deprecated: no header, no count.
		list := env.API(secretA).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		for _, h := range []string{"Deprecation", "Sunset", "Link"} {
			if v := list.Header.Get(h); v != "" {
				t.Errorf("GET /api/v1/courses carries %s: %q", h, v)
			}
		}

		env.flush(t)
		got := env.calls(t, ws)
		a := got[keyA+" "+deprecatedRoute]
		if diff := cmp.Diff(map[string]int{keyA + " " + deprecatedRoute: 2, keyB + " " + deprecatedRoute: 1}, callCounts(got, "")); diff != "" {
			t.Fatalf("calls per key and route (-want +got):\n%s", diff)
		}
		if !a.FirstSeen.Equal(testenv.Epoch) || !a.LastSeen.Equal(testenv.Epoch.Add(time.Minute)) || !a.Sunset.Equal(sunset) {
			t.Fatalf("key A's row %+v: want first seen at the epoch, last a minute later, sunset %s", a, sunset)
		}
		if others := env.calls(t, other); len(others) != 1 {
			t.Fatalf("the other workspace's calls: %+v, want its own one", others)
		}

		// Counts add up across flushes (the upsert), never per request.
		env.Clock.Set(testenv.Epoch.Add(time.Hour))
		env.API(secretA).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusOK)
		env.flush(t)
		if a := env.calls(t, ws)[keyA+" "+deprecatedRoute]; a.Calls != 3 || !a.LastSeen.Equal(testenv.Epoch.Add(time.Hour)) {
			t.Fatalf("after a second flush key A's row is %+v, want 3 calls, last an hour after the epoch", a)
		}

		// The dashboard's keys page shows them under "API health".
		page := string(env.signedIn(t, ws).Get(t, "/dashboard/w/"+ws+"/keys").Expect(t, http.StatusOK).Body)
		for _, want := range []string{"API health", deprecatedRoute, keyA, keyB, ">3<"} {
			if !strings.Contains(page, want) {
				t.Errorf("keys page lacks %q", want)
			}
		}
	})
}

func TestDeprecatedMajorMarksEveryRoute(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		v2 := testenv.Epoch.Add(-24 * time.Hour)
		versions, err := platform.NewVersions([]platform.Major{
			{Number: 1, Released: platform.V1Released, Payload: platform.RenderV1, Migration: "https://docs.example.com/migrate/v2"},
			{Number: 2, Released: v2, Payload: platform.RenderV1},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		env := startDeprecations(t, dbURL, versions)
		ws := env.CreateWorkspace(t, "Academy")
		key, secret := env.CreateKey(t, ws, "read:courses", "read:students")
		sunset := v2.AddDate(0, 6, 0)
		for _, path := range []string{"/api/v1/courses", "/api/v1/students"} {
			expectDeprecationHeaders(t, env.API(secret).Get(t, path).Expect(t, http.StatusOK), v2, sunset, "https://docs.example.com/migrate/v2")
		}
		// A key without the scope gets 403 on a deprecated route: marked too.
		_, narrow := env.CreateKey(t, ws, "read:students")
		expectDeprecationHeaders(t, env.API(narrow).Get(t, "/api/v1/courses").Expect(t, http.StatusForbidden), v2, sunset, "https://docs.example.com/migrate/v2")
		env.flush(t)
		got := env.calls(t, ws)
		if diff := cmp.Diff(map[string]int{key + " GET /api/v1/courses": 1, key + " GET /api/v1/students": 1}, callCounts(got, key)); diff != "" {
			t.Fatalf("calls of key %s per route (-want +got):\n%s", key, diff)
		}
	})
}

func TestSunsetNoticesAtNinetyThirtyAndSevenDaysOncePerKey(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		mb := newMailbox(t)
		sunset := testenv.Epoch.Add(100 * 24 * time.Hour)
		env := startDeprecations(t, dbURL, routeDeprecated(t, testenv.Epoch, sunset),
			fx.Decorate(func(c compose.Config) compose.Config {
				c.SMTPURL = "smtp://" + mb.addr + "?tls=none&from=alerts@creatorapi.test"
				return c
			}))
		ws := env.CreateWorkspace(t, "Academy") // owner@example.com
		course := env.CreatePublishedCourse(t, ws, "Watercolor")
		keyA, secretA := env.CreateKey(t, ws, "read:courses")
		keyB, secretB := env.CreateKey(t, ws, "read:courses")
		keyC, _ := env.CreateKey(t, ws, "read:courses") // never calls the route
		call := func(secret string, at time.Time) {
			env.Clock.Set(at)
			env.API(secret).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusOK)
			env.flush(t)
		}
		send := func(at time.Time) int {
			env.Clock.Set(at)
			n, err := env.App.SendNotices(context.Background())
			if err != nil {
				t.Fatalf("send notices at %s: %v", at, err)
			}
			if again, err := env.App.SendNotices(context.Background()); err != nil || again != 0 {
				t.Fatalf("a second run at %s sent %d (%v): each notice goes once", at, again, err)
			}
			return n
		}
		before := func(days int) time.Time { return sunset.Add(-time.Duration(days) * 24 * time.Hour) }

		call(secretA, testenv.Epoch)
		call(secretB, testenv.Epoch) // B stops calling after this
		if n := send(before(91)); n != 0 {
			t.Fatalf("%d notices 91 days before the sunset", n)
		}
		if n := send(before(90)); n != 2 {
			t.Fatalf("%d notices 90 days before the sunset, want one for each of keys A and B", n)
		}
		call(secretA, before(31))
		if n := send(before(30)); n != 1 { // B's last call is 70 days old: it stopped
			t.Fatalf("%d notices 30 days before the sunset, want key A's", n)
		}
		call(secretA, before(8))
		if n := send(before(7)); n != 1 {
			t.Fatalf("%d notices 7 days before the sunset, want key A's", n)
		}
		if n := send(before(1)); n != 0 {
			t.Fatalf("%d notices a day before the sunset, want none (7 days was sent)", n)
		}
		if n := send(sunset.Add(time.Hour)); n != 0 {
			t.Fatalf("%d notices after the sunset", n)
		}

		msgs := mb.messages()
		if len(msgs) != 4 {
			t.Fatalf("%d e-mails, want 4", len(msgs))
		}
		perKey := map[string]int{}
		for _, m := range msgs {
			if len(m.To) != 1 || m.To[0] != "owner@example.com" || !strings.Contains(m.Data, "Subject: API key ") ||
				!strings.Contains(m.Data, sunset.Format(time.DateOnly)) {
				t.Fatalf("notice %+v", m)
			}
			for _, k := range []string{keyA, keyB, keyC} {
				if strings.Contains(m.Data, "Subject: API key "+k) {
					perKey[k]++
				}
			}
		}
		if diff := cmp.Diff(map[string]int{keyA: 3, keyB: 1}, perKey); diff != "" {
			t.Fatalf("notices per key, C none (-want +got):\n%s", diff)
		}
	})
}
