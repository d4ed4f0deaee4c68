package tests

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/valyala/fasthttp/fasthttputil"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type progressJSON struct {
	CompletedLessons int `json:"completedLessons"`
	TotalLessons     int `json:"totalLessons"`
	Percent          int `json:"percent"`
}

type studentEnrollmentJSON struct {
	ID          string       `json:"id"`
	CourseID    string       `json:"courseId"`
	Status      string       `json:"status"`
	CreatedAt   time.Time    `json:"createdAt"`
	RevokedAt   *time.Time   `json:"revokedAt"`
	CompletedAt *time.Time   `json:"completedAt"`
	Progress    progressJSON `json:"progress"`
}

type studentJSON struct {
	ID          string                  `json:"id"`
	Email       string                  `json:"email"`
	FirstName   string                  `json:"firstName"`
	LastName    string                  `json:"lastName"`
	ExternalID  string                  `json:"externalId"`
	Metadata    map[string]string       `json:"metadata"`
	CreatedAt   time.Time               `json:"createdAt"`
	UpdatedAt   time.Time               `json:"updatedAt"`
	Enrollments []studentEnrollmentJSON `json:"enrollments"`
}

type studentList struct {
	Data       []studentJSON `json:"data"`
	Pagination struct {
		Cursor  *string `json:"cursor"`
		HasMore bool    `json:"has_more"`
	} `json:"pagination"`
}

// ids lists the page's student ids in order, for cmp.Diff.
func (l studentList) ids() []string {
	out := make([]string, len(l.Data))
	for i, s := range l.Data {
		out[i] = s.ID
	}
	return out
}

// expectInvalid asserts a 422 invalid_request whose param names field.
func expectInvalid(t *testing.T, r testenv.Response, field string) {
	t.Helper()
	r.ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
	var env struct {
		Error struct {
			Param   string `json:"param"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.Decode(t, &env)
	if env.Error.Param != field {
		t.Fatalf("error.param %q, want %q; body %s", env.Error.Param, field, r.Body)
	}
	if strings.Contains(env.Error.Message, "sql") || strings.Contains(env.Error.Message, "SELECT") {
		t.Fatalf("message leaks internals: %s", env.Error.Message)
	}
}

func decodeData[T any](t *testing.T, ev events.Envelope) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatalf("event %s data %s: %v", ev.Type, ev.Data, err)
	}
	return v
}

// sendOverSocket serves app on an in-memory listener for one request and returns the
// answer. The request is written concurrently and its write errors are ignored: the
// server may answer and close before reading the whole body (that is the point of a
// body limit), and a pipe, unlike TCP, keeps that answer readable.
func sendOverSocket(t *testing.T, app *fiber.App, method, path, bearer, body string) testenv.Response {
	t.Helper()
	ln := fasthttputil.NewInmemoryListener()
	go func() { _ = app.Listener(ln) }()
	t.Cleanup(func() { _ = app.Shutdown() })
	conn, err := ln.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		_, _ = fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s",
			method, path, bearer, len(body), body)
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return testenv.Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

func studentsPath(ws string) string { return fmt.Sprintf("/internal/v1/workspaces/%s/students", ws) }

func TestStudentCreateShapeAndIdempotency(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))

		body := map[string]any{
			"email": "Ada.Lovelace@Example.com", "firstName": "Ada", "lastName": "Lovelace",
			"externalId": "crm-42", "metadata": map[string]string{"plan": "pro", "source": "webinar"},
		}
		resp := api.Post(t, "/api/v1/students", body).Expect(t, http.StatusCreated)
		var s studentJSON
		resp.Decode(t, &s)
		if !strings.HasPrefix(s.ID, "stu_") || s.Email != "Ada.Lovelace@Example.com" || s.FirstName != "Ada" || s.LastName != "Lovelace" ||
			s.ExternalID != "crm-42" || !reflect.DeepEqual(s.Metadata, map[string]string{"plan": "pro", "source": "webinar"}) ||
			!s.CreatedAt.Equal(testenv.Epoch) || !s.UpdatedAt.Equal(testenv.Epoch) || s.Enrollments == nil || len(s.Enrollments) != 0 {
			t.Fatalf("created student %+v; body %s", s, resp.Body)
		}
		raw := resp.JSON(t)
		for _, field := range []string{"id", "email", "firstName", "lastName", "externalId", "metadata", "createdAt", "updatedAt", "enrollments"} {
			if _, ok := raw[field]; !ok {
				t.Fatalf("field %s missing: %s", field, resp.Body)
			}
		}
		if raw["createdAt"] != "2026-11-21T10:00:00Z" {
			t.Fatalf("createdAt %v, want RFC 3339 UTC", raw["createdAt"])
		}

		// Same address, other case, other fields: the existing student, unchanged, 200.
		env.Clock.Advance(time.Minute)
		var again studentJSON
		api.Post(t, "/api/v1/students", map[string]any{"email": "ada.lovelace@EXAMPLE.com", "firstName": "Someone"}).
			Expect(t, http.StatusOK).Decode(t, &again)
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("repeat create %+v, want the existing %+v", again, s)
		}

		// Minimal body: metadata is {} (never null), names are empty strings.
		min := api.Post(t, "/api/v1/students", map[string]any{"email": "bob@example.com"}).Expect(t, http.StatusCreated)
		if m := min.JSON(t); fmt.Sprint(m["metadata"]) != "map[]" || m["firstName"] != "" || m["externalId"] != "" {
			t.Fatalf("minimal student %s", min.Body)
		}

		created := env.OutboxEventsOfType(t, events.StudentCreated)
		if len(created) != 2 {
			t.Fatalf("%d student.created events, want 2 (none for the repeat)", len(created))
		}
		if data := decodeData[studentJSON](t, created[0]); !reflect.DeepEqual(data, s) || created[0].WorkspaceID != ws {
			t.Fatalf("student.created data %+v, want %+v", data, s)
		}
	})
}

func TestStudentCreateValidation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		key := env.LearningKey(t, ws)
		api := env.API(key)

		manyKeys := map[string]string{}
		for i := 0; i < 51; i++ {
			manyKeys[fmt.Sprintf("k%d", i)] = "v"
		}
		cases := []struct {
			name  string
			body  any
			param string
		}{
			{"missing email", map[string]any{"firstName": "A"}, "email"},
			{"empty email", map[string]any{"email": ""}, "email"},
			{"bad email", map[string]any{"email": "not-an-address"}, "email"},
			{"display-name email", map[string]any{"email": "Ada <ada@example.com>"}, "email"},
			{"email without dot in domain", map[string]any{"email": "ada@localhost"}, "email"},
			{"email too long", map[string]any{"email": strings.Repeat("a", 250) + "@x.io"}, "email"},
			{"unknown field", `{"email":"a@example.com","nickname":"x"}`, "nickname"},
			{"wrong type email", `{"email":42}`, "email"},
			{"wrong type metadata", `{"email":"a@example.com","metadata":["x"]}`, "metadata"},
			{"malformed JSON", `{"email":"a@example.com"`, "body"},
			{"not an object", `["a@example.com"]`, "body"},
			{"two objects", `{"email":"a@example.com"}{}`, "body"},
			{"empty body", "", "body"},
			{"firstName too long", map[string]any{"email": "a@example.com", "firstName": strings.Repeat("é", 101)}, "firstName"},
			{"lastName too long", map[string]any{"email": "a@example.com", "lastName": strings.Repeat("x", 101)}, "lastName"},
			{"externalId too long", map[string]any{"email": "a@example.com", "externalId": strings.Repeat("x", 256)}, "externalId"},
			{"too many metadata keys", map[string]any{"email": "a@example.com", "metadata": manyKeys}, "metadata"},
			{"metadata key too long", map[string]any{"email": "a@example.com", "metadata": map[string]string{strings.Repeat("k", 41): "v"}}, "metadata"},
			{"metadata value too long", map[string]any{"email": "a@example.com", "metadata": map[string]string{"k": strings.Repeat("v", 501)}}, "metadata"},
			{"empty metadata key", map[string]any{"email": "a@example.com", "metadata": map[string]string{"": "v"}}, "metadata"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				expectInvalid(t, api.Post(t, "/api/v1/students", c.body), c.param)
			})
		}
		// fiber's in-memory Test harness reports an oversized body as its own error, so
		// this one goes over a real socket.
		huge := `{"email":"big@example.com","firstName":"` + strings.Repeat("x", 1<<20) + `"}`
		expectInvalid(t, sendOverSocket(t, env.Public.App, http.MethodPost, "/api/v1/students", key, huge), "body")
		// Limits are inclusive.
		ok := map[string]any{
			"email": strings.Repeat("a", 243) + "@example.io", "firstName": strings.Repeat("é", 100), "lastName": strings.Repeat("x", 100),
			"externalId": strings.Repeat("x", 255), "metadata": map[string]string{strings.Repeat("k", 40): strings.Repeat("v", 500)},
		}
		api.Post(t, "/api/v1/students", ok).Expect(t, http.StatusCreated)
		expectInvalid(t, api.Post(t, "/api/v1/students?dryRun=1", map[string]any{"email": "q@example.com"}), "dryRun")

		if n := len(env.OutboxEventsOfType(t, events.StudentCreated)); n != 1 {
			t.Fatalf("%d student.created events, want 1", n)
		}
		// Scopes: reading does not allow writing, and the other way round.
		_, readOnly := env.CreateKey(t, ws, "read:students")
		env.API(readOnly).Post(t, "/api/v1/students", map[string]any{"email": "x@example.com"}).ExpectError(t, http.StatusForbidden, "forbidden")
		_, writeOnly := env.CreateKey(t, ws, "write:students")
		env.API(writeOnly).Get(t, "/api/v1/students").ExpectError(t, http.StatusForbidden, "forbidden")
	})
}

func TestStudentListFilters(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))

		early := env.CreateStudent(t, ws, "early@example.com")
		env.Clock.Advance(time.Hour)
		late := env.CreateStudent(t, ws, "Late.Bird@Example.com")

		var list studentList
		api.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{late, early}, list.ids()); diff != "" || list.Pagination.HasMore || list.Pagination.Cursor != nil {
			t.Fatalf("list (-want +got):\n%s\npagination %+v, want none", diff, list.Pagination)
		}

		api.Get(t, "/api/v1/students?email="+url.QueryEscape("late.bird@EXAMPLE.COM")).Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{late}, list.ids()); diff != "" {
			t.Fatalf("email filter (-want +got):\n%s", diff)
		}
		api.Get(t, "/api/v1/students?email=nobody%40example.com").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 0 {
			t.Fatalf("email filter for an unknown address %+v", list.Data)
		}

		since := testenv.Epoch.Add(30 * time.Minute).Format(time.RFC3339)
		api.Get(t, "/api/v1/students?updatedSince="+since).Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{late}, list.ids()); diff != "" {
			t.Fatalf("updatedSince %s (-want +got):\n%s", since, diff)
		}
		// Offsets are honoured, also when the '+' arrives unencoded (as a space).
		api.Get(t, "/api/v1/students?updatedSince=2026-11-21T11:00:00%2B01:00").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 2 {
			t.Fatalf("updatedSince with offset: %d students, want 2", len(list.Data))
		}
		api.Get(t, "/api/v1/students?updatedSince=2026-11-21T11:30:00+01:00").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 {
			t.Fatalf("updatedSince with raw '+': %d students, want 1", len(list.Data))
		}
		// Embedded changes move updatedAt: enrolling the early student brings it back.
		course := env.CreatePublishedCourse(t, ws, "Course")
		env.Clock.Advance(time.Hour)
		env.Enroll(t, ws, early, course)
		api.Get(t, "/api/v1/students?updatedSince="+testenv.Epoch.Add(90*time.Minute).Format(time.RFC3339)).Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{early}, list.ids()); diff != "" || !list.Data[0].UpdatedAt.Equal(testenv.Epoch.Add(2*time.Hour)) {
			t.Fatalf("after enrolling, updatedSince (-want +got):\n%s\n%+v, want updatedAt %s", diff, list.Data, testenv.Epoch.Add(2*time.Hour))
		}

		for _, c := range []struct{ query, param string }{
			{"updatedSince=yesterday", "updatedSince"},
			{"updatedSince=2026-11-21", "updatedSince"},
			{"updatedSince=2026-11-21T10:00:00", "updatedSince"},
			{"updatedSince=", "updatedSince"},
			{"email=", "email"},
			{"email=not-an-address", "email"},
			{"status=active", "status"},
			{"Email=a%40example.com", "Email"},
			{"limit=0", "limit"},
			{"limit=101", "limit"},
			{"limit=ten", "limit"},
			{"limit=", "limit"},
			{"cursor=forged", "cursor"},
			{"cursor=", "cursor"},
		} {
			t.Run(c.query, func(t *testing.T) {
				expectInvalid(t, api.Get(t, "/api/v1/students?"+c.query), c.param)
			})
		}
	})
}

func TestStudentPaginationAcrossPages(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))

		want := map[string]bool{}
		for i := 0; i < 120; i++ {
			// Groups of students share a creation time: ties are broken by id.
			if i%7 == 0 {
				env.Clock.Advance(time.Second)
			}
			want[env.CreateStudent(t, ws, fmt.Sprintf("student%03d@example.com", i))] = true
		}
		seen := map[string]bool{}
		var prev *studentJSON
		path := "/api/v1/students?limit=50"
		pages := 0
		for {
			var list studentList
			api.Get(t, path).Expect(t, http.StatusOK).Decode(t, &list)
			pages++
			for i := range list.Data {
				s := list.Data[i]
				if seen[s.ID] {
					t.Fatalf("student %s shown twice", s.ID)
				}
				seen[s.ID] = true
				if prev != nil && (s.CreatedAt.After(prev.CreatedAt) || s.CreatedAt.Equal(prev.CreatedAt) && s.ID > prev.ID) {
					t.Fatalf("order broken: %s (%s) after %s (%s)", s.ID, s.CreatedAt, prev.ID, prev.CreatedAt)
				}
				prev = &s
			}
			if !list.Pagination.HasMore {
				if list.Pagination.Cursor != nil {
					t.Fatal("last page carries a cursor")
				}
				break
			}
			path = "/api/v1/students?limit=50&cursor=" + url.QueryEscape(*list.Pagination.Cursor)
		}
		if pages != 3 || len(seen) != 120 || !reflect.DeepEqual(seen, want) {
			t.Fatalf("%d pages, %d students seen, want 3 pages and the 120 created", pages, len(seen))
		}

		// A cursor is bound to its filters.
		var first studentList
		api.Get(t, "/api/v1/students?limit=10").Decode(t, &first)
		expectInvalid(t, api.Get(t, "/api/v1/students?limit=10&email=student001%40example.com&cursor="+url.QueryEscape(*first.Pagination.Cursor)), "cursor")
		expectInvalid(t, api.Get(t, "/api/v1/students?limit=10&updatedSince=2026-01-01T00:00:00Z&cursor="+url.QueryEscape(*first.Pagination.Cursor)), "cursor")
		// ...but not to the page size.
		api.Get(t, "/api/v1/students?limit=20&cursor="+url.QueryEscape(*first.Pagination.Cursor)).Expect(t, http.StatusOK)
	})
}

func TestStudentTenantIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		a := env.CreateWorkspace(t, "A")
		b := env.CreateWorkspace(t, "B")
		apiA := env.API(env.LearningKey(t, a))
		apiB := env.API(env.LearningKey(t, b))

		for i := 0; i < 3; i++ {
			env.CreateStudent(t, a, fmt.Sprintf("a%d@example.com", i))
		}
		var list studentList
		apiB.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 0 {
			t.Fatalf("B sees A's students: %+v", list.Data)
		}
		apiB.Get(t, "/api/v1/students?email=a0%40example.com").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 0 {
			t.Fatalf("B finds A's student by email: %+v", list.Data)
		}
		// The same address is a different student in another workspace.
		var inB studentJSON
		apiB.Post(t, "/api/v1/students", map[string]any{"email": "a0@example.com"}).Expect(t, http.StatusCreated).Decode(t, &inB)

		var pageA studentList
		apiA.Get(t, "/api/v1/students?limit=1").Expect(t, http.StatusOK).Decode(t, &pageA)
		if pageA.Pagination.Cursor == nil {
			t.Fatal("A's first page has no cursor")
		}
		expectInvalid(t, apiB.Get(t, "/api/v1/students?limit=1&cursor="+url.QueryEscape(*pageA.Pagination.Cursor)), "cursor")
		// A cursor of another list is refused too.
		_, coursesKey := env.CreateKey(t, a, "read:courses")
		expectInvalid(t, env.API(coursesKey).Get(t, "/api/v1/courses?cursor="+url.QueryEscape(*pageA.Pagination.Cursor)), "cursor")

		// Operator commands are scoped by the workspace in the path.
		env.Admin().Get(t, studentsPath(a)+"/"+inB.ID).ExpectError(t, http.StatusNotFound, "not_found")
		env.Admin().Do(t, http.MethodPatch, studentsPath(a)+"/"+inB.ID, map[string]any{"firstName": "X"}).ExpectError(t, http.StatusNotFound, "not_found")
		env.Admin().Do(t, http.MethodDelete, studentsPath(a)+"/"+inB.ID, nil).ExpectError(t, http.StatusNotFound, "not_found")
		env.Admin().Get(t, studentsPath(b)+"/"+inB.ID).Expect(t, http.StatusOK)
		env.Admin().Post(t, studentsPath("org_missing"), map[string]any{"email": "z@example.com"}).ExpectError(t, http.StatusNotFound, "not_found")
	})
}

func TestStudentOperatorUpdateAndDelete(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		admin := env.Admin()
		id := env.CreateStudent(t, ws, "grace@example.com")
		other := env.CreateStudent(t, ws, "other@example.com")
		course := env.CreatePublishedCourse(t, ws, "Navy")
		env.Enroll(t, ws, id, course)

		env.Clock.Advance(time.Minute)
		var updated studentJSON
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{
			"email": "Grace.Hopper@Example.com", "firstName": "Grace", "lastName": "Hopper", "metadata": map[string]string{"rank": "admiral"},
		}).Expect(t, http.StatusOK).Decode(t, &updated)
		if updated.Email != "Grace.Hopper@Example.com" || updated.FirstName != "Grace" || updated.LastName != "Hopper" ||
			!reflect.DeepEqual(updated.Metadata, map[string]string{"rank": "admiral"}) || !updated.UpdatedAt.Equal(testenv.Epoch.Add(time.Minute)) ||
			!updated.CreatedAt.Equal(testenv.Epoch) || len(updated.Enrollments) != 1 {
			t.Fatalf("updated %+v", updated)
		}
		evs := env.OutboxEventsOfType(t, events.StudentUpdated)
		if len(evs) != 1 || evs[0].WorkspaceID != ws || !reflect.DeepEqual(decodeData[studentJSON](t, evs[0]), updated) {
			t.Fatalf("student.updated events %+v, want one with the updated student", evs)
		}

		// A partial patch keeps the other fields; an empty one changes nothing and emits nothing.
		var partial studentJSON
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"lastName": "Murray Hopper"}).Expect(t, http.StatusOK).Decode(t, &partial)
		if diff := cmp.Diff([]string{"Grace", "Murray Hopper", "admiral"}, []string{partial.FirstName, partial.LastName, partial.Metadata["rank"]}); diff != "" {
			t.Fatalf("partial patch: first name, last name, metadata rank (-want +got):\n%s", diff)
		}
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{}).Expect(t, http.StatusOK)
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"firstName": "Grace"}).Expect(t, http.StatusOK)
		if n := len(env.OutboxEventsOfType(t, events.StudentUpdated)); n != 2 {
			t.Fatalf("%d student.updated events, want 2 (no-op patches emit nothing)", n)
		}

		expectInvalid(t, admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"email": "OTHER@example.com"}), "email")
		expectInvalid(t, admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"email": "nope"}), "email")
		expectInvalid(t, admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"nickname": "G"}), "nickname")
		expectInvalid(t, admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"firstName": strings.Repeat("x", 101)}), "firstName")
		expectInvalid(t, admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, `{"metadata":{"a":1}}`), "metadata.a")
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/stu_missing", map[string]any{"firstName": "X"}).ExpectError(t, http.StatusNotFound, "not_found")

		// Delete: the event carries the student as last shown; the address becomes free.
		env.Clock.Advance(time.Minute)
		var last studentJSON
		admin.Get(t, studentsPath(ws)+"/"+id).Expect(t, http.StatusOK).Decode(t, &last)
		var deleted studentJSON
		admin.Do(t, http.MethodDelete, studentsPath(ws)+"/"+id, nil).Expect(t, http.StatusOK).Decode(t, &deleted)
		if !reflect.DeepEqual(deleted, last) {
			t.Fatalf("delete answered %+v, want the student as last shown %+v", deleted, last)
		}
		dels := env.OutboxEventsOfType(t, events.StudentDeleted)
		if len(dels) != 1 || !reflect.DeepEqual(decodeData[studentJSON](t, dels[0]), last) {
			t.Fatalf("student.deleted events %+v", dels)
		}
		var list studentList
		api.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		if diff := cmp.Diff([]string{other}, list.ids()); diff != "" {
			t.Fatalf("list after delete (-want +got):\n%s", diff)
		}
		admin.Get(t, studentsPath(ws)+"/"+id).ExpectError(t, http.StatusNotFound, "not_found")
		admin.Do(t, http.MethodDelete, studentsPath(ws)+"/"+id, nil).ExpectError(t, http.StatusNotFound, "not_found")
		admin.Do(t, http.MethodPatch, studentsPath(ws)+"/"+id, map[string]any{"firstName": "X"}).ExpectError(t, http.StatusNotFound, "not_found")
		var reborn studentJSON
		api.Post(t, "/api/v1/students", map[string]any{"email": "grace.hopper@example.com"}).Expect(t, http.StatusCreated).Decode(t, &reborn)
		if reborn.ID == id || len(reborn.Enrollments) != 0 {
			t.Fatalf("re-created student %+v reuses the deleted one", reborn)
		}
		// A deleted student cannot be enrolled.
		expectInvalid(t, api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": id, "courseId": course}), "studentId")
	})
}

func TestStudentConcurrentCreatesOfOneAddress(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))

		wantOneCreated(t, 30, func(i int) testenv.Response {
			// Different case each time: uniqueness is case-insensitive.
			email := "Lead@Example.com"
			if i%2 == 1 {
				email = "lead@example.COM"
			}
			return api.Post(t, "/api/v1/students", map[string]any{"email": email})
		})
		if evs := env.OutboxEventsOfType(t, events.StudentCreated); len(evs) != 1 {
			t.Fatalf("%d student.created events, want 1", len(evs))
		}
	})
}
