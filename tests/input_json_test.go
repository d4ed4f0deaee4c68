package tests

import (
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Strict JSON as documented: a gateway that reads the first of two duplicate members,
// or matches names without case, must not be bypassed, and only application/json is
// JSON. Each is 422 naming the field.
func TestStrictJSONBodies(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, testenv.AllScopes()...)
		public := testenv.NewRawClient(env.Public.App, key)
		operator := testenv.NewRawClient(env.Operator.App, testenv.AdminToken)
		W := "/internal/v1/workspaces/" + ws
		const ct = "application/json"

		cases := []struct {
			name   string
			client testenv.RawClient
			path   string
			body   string
			ct     string
			param  string
		}{
			{"duplicate member", public, "/api/v1/students", `{"email":"a@example.com","email":"b@example.com"}`, ct, "email"},
			{"duplicate member in a map", public, "/api/v1/students", `{"email":"a@example.com","metadata":{"plan":"a","plan":"b"}}`, ct, "metadata.plan"},
			{"name differing in case", public, "/api/v1/students", `{"Email":"a@example.com"}`, ct, "Email"},
			{"name differing in case, alongside the right one", public, "/api/v1/students", `{"email":"a@example.com","FIRSTNAME":"x"}`, ct, "FIRSTNAME"},
			{"Content-Type application/jsonx", public, "/api/v1/students", `{"email":"a@example.com"}`, "application/jsonx", "body"},
			{"Content-Type application/json-patch+json", public, "/api/v1/students", `{"email":"a@example.com"}`, "application/json-patch+json", "body"},
			{"Content-Type with another charset", public, "/api/v1/students", `{"email":"a@example.com"}`, "application/json; charset=latin1", "body"},
			{"Content-Type text/plain", public, "/api/v1/students", `{"email":"a@example.com"}`, "text/plain", "body"},
			{"unknown field still refused", public, "/api/v1/students", `{"email":"a@example.com","nickname":"x"}`, ct, "nickname"},
			{"wrong type names the nested field", operator, W + "/orders", `{"studentId":"stu_x","currency":"usd","items":[{"courseId":1,"amount":1}]}`, ct, "items[0].courseId"},
			{"operator: duplicate member", operator, "/internal/v1/workspaces", `{"name":"A","name":"B","ownerEmail":"o@example.com"}`, ct, "name"},
			{"operator: name differing in case", operator, "/internal/v1/workspaces", `{"Name":"A","ownerEmail":"o@example.com"}`, ct, "Name"},
			{"operator: Content-Type prefix", operator, "/internal/v1/workspaces", `{"name":"A","ownerEmail":"o@example.com"}`, "application/jsonfoo", "body"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				expectInvalid(t, c.client.Do(http.MethodPost, c.path, []byte(c.body), c.ct), c.param)
			})
		}

		// What stays accepted: parameters on application/json, any case of the type.
		want := http.StatusCreated
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"} {
			public.Do(http.MethodPost, "/api/v1/students", []byte(`{"email":"ok@example.com"}`), ct).Expect(t, want)
			want = http.StatusOK // the same address again
		}
	})
}
