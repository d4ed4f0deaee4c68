package tests

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Text reaching the database: every text input, in bodies, query parameters and path
// segments, public and operator, must be valid UTF-8 without NUL or other control
// characters (tabs and line breaks only where a field allows them). PostgreSQL refused
// such text with a 500 (SQLSTATE 22021); SQLite stored it.

func TestTextInputIsCheckedEverywhere(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, testenv.AllScopes()...)
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreatePublishedCourse(t, ws, "Go")
		public := testenv.NewRawClient(env.Public.App, key)
		operator := testenv.NewRawClient(env.Operator.App, testenv.AdminToken)
		const ct = "application/json"
		W := "/internal/v1/workspaces/" + ws

		bodies := []struct {
			name   string
			client testenv.RawClient
			method string
			path   string
			body   string
			param  string
		}{
			{"NUL in email", public, http.MethodPost, "/api/v1/students", `{"email":"a\u0000b@example.com"}`, "email"},
			{"NUL in firstName", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","firstName":"A\u0000"}`, "firstName"},
			{"bell in lastName", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","lastName":"A\u0007"}`, "lastName"},
			{"newline in a one-line field", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","firstName":"A\nB"}`, "firstName"},
			{"tab in a one-line field", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","externalId":"A\tB"}`, "externalId"},
			{"C1 control", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","firstName":"A\u0085"}`, "firstName"},
			{"DEL", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","firstName":"A\u007f"}`, "firstName"},
			{"invalid UTF-8", public, http.MethodPost, "/api/v1/students", "{\"email\":\"b@example.com\",\"firstName\":\"A\xff\"}", "firstName"},
			{"lone surrogate", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","firstName":"\ud800"}`, "firstName"},
			{"NUL in a metadata value", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","metadata":{"plan":"p\u0000"}}`, "metadata.plan"},
			{"NUL in a metadata key", public, http.MethodPost, "/api/v1/students", `{"email":"b@example.com","metadata":{"p\u0000":"x"}}`, "metadata"},
			{"NUL in studentId", public, http.MethodPost, "/api/v1/enrollments", `{"studentId":"stu_\u0000","courseId":"` + course + `"}`, "studentId"},
			{"invalid UTF-8 in courseId", public, http.MethodPost, "/api/v1/enrollments", "{\"studentId\":\"" + student + "\",\"courseId\":\"\xc3\x28\"}", "courseId"},
			{"operator: workspace name", operator, http.MethodPost, "/internal/v1/workspaces", `{"name":"A\u0000","ownerEmail":"o@example.com"}`, "name"},
			{"operator: course title newline", operator, http.MethodPost, W + "/courses", `{"title":"T\n"}`, "title"},
			{"operator: NUL in description", operator, http.MethodPost, W + "/courses", `{"title":"T","description":"a\u0000"}`, "description"},
			{"operator: student patch", operator, http.MethodPatch, W + "/students/" + student, `{"firstName":"\u0000"}`, "firstName"},
			{"operator: webhook url", operator, http.MethodPost, W + "/webhooks", `{"url":"https://example.com/\u0000","events":["order.paid"]}`, "url"},
			{"operator: key scope", operator, http.MethodPost, W + "/keys", `{"name":"k","scopes":["read:courses\u0000"]}`, "scopes[0]"},
			{"operator: order currency", operator, http.MethodPost, W + "/orders", `{"studentId":"` + student + `","currency":"us\u0000","items":[{"courseId":"` + course + `","amount":1}]}`, "currency"},
			{"operator: order item", operator, http.MethodPost, W + "/orders", `{"studentId":"` + student + `","currency":"usd","items":[{"courseId":"\u0000","amount":1}]}`, "items[0].courseId"},
		}
		for _, c := range bodies {
			t.Run("body/"+c.name, func(t *testing.T) {
				expectInvalid(t, c.client.Do(c.method, c.path, []byte(c.body), ct), c.param)
			})
		}

		queries := []struct {
			name   string
			client testenv.RawClient
			uri    string
			param  string
		}{
			{"NUL in email filter", public, "/api/v1/students?email=a%00b@example.com", "email"},
			{"invalid UTF-8 in email filter", public, "/api/v1/students?email=%FF", "email"},
			{"NUL in studentId filter", public, "/api/v1/orders?studentId=stu_%00", "studentId"},
			{"control in cursor", public, "/api/v1/courses?cursor=%01", "cursor"},
			{"NUL in a parameter name", public, "/api/v1/courses?li%00mit=1", "query"},
			{"operator: deliveries status", operator, W + "/webhooks/whk_x/deliveries?status=%00", "status"},
		}
		for _, c := range queries {
			t.Run("query/"+c.name, func(t *testing.T) {
				expectInvalid(t, c.client.Do(http.MethodGet, c.uri, nil, ""), c.param)
			})
		}

		paths := []struct {
			name   string
			client testenv.RawClient
			method string
			uri    string
			param  string
		}{
			{"invalid UTF-8 course id", public, http.MethodGet, "/api/v1/courses/crs_\xff", "id"},
			{"operator: invalid UTF-8 workspace", operator, http.MethodGet, "/internal/v1/workspaces/org_\xfe", "org"},
			{"operator: invalid UTF-8 student id", operator, http.MethodGet, W + "/students/stu_\xc3", "id"},
			{"operator: invalid UTF-8 enrollment id", operator, http.MethodPost, W + "/enrollments/enr_\xe2\x82/revoke", "id"},
		}
		for _, c := range paths {
			t.Run("path/"+c.name, func(t *testing.T) {
				expectInvalid(t, c.client.Do(c.method, c.uri, nil, ""), c.param)
			})
		}

		// Where a field allows line breaks and tabs, they pass; the check order is kept:
		// authentication first, then the scope, then the text.
		t.Run("multiline description allowed", func(t *testing.T) {
			r := operator.Do(http.MethodPost, W+"/courses", []byte(`{"title":"T","description":"line 1\nline 2\r\n\tindented"}`), ct)
			r.Expect(t, http.StatusCreated)
		})
		t.Run("unauthenticated is still 401", func(t *testing.T) {
			anon := testenv.NewRawClient(env.Public.App, "")
			anon.Do(http.MethodGet, "/api/v1/students?email=%00", nil, "").ExpectError(t, http.StatusUnauthorized, "unauthorized")
		})
		t.Run("missing scope is still 403", func(t *testing.T) {
			_, readOnly := env.CreateKey(t, ws, "read:courses")
			limited := testenv.NewRawClient(env.Public.App, readOnly)
			limited.Do(http.MethodGet, "/api/v1/students?email=%00", nil, "").ExpectError(t, http.StatusForbidden, "forbidden")
		})
		t.Run("nothing stored", func(t *testing.T) {
			var n int
			if err := env.DB.Reader.Get(&n, env.DB.Rebind(fmt.Sprintf("SELECT COUNT(*) FROM students WHERE workspace_id = '%s'", ws))); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Fatalf("%d students in the workspace, want 1 (only the fixture)", n)
			}
		})
	})
}
