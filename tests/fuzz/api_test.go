package fuzz

import (
	"net/http"
	"testing"
)

var publicFuzzRoutes = []fuzzRoute{
	{http.MethodGet, "/api/v1/courses", ""},
	{http.MethodGet, "/api/v1/courses/{id}", "course"},
	{http.MethodGet, "/api/v1/students", ""},
	{http.MethodPost, "/api/v1/students", ""},
	{http.MethodPost, "/api/v1/enrollments", ""},
	{http.MethodGet, "/api/v1/orders", ""},
	{http.MethodGet, "/api/v1/analytics/summary", ""},
}

// FuzzPublicAPI: route (an index), the path segment, the raw query string, the body
// and its Content-Type, on every database.
func FuzzPublicAPI(f *testing.F) {
	const ct = "application/json"
	seeds := []struct {
		route       uint8
		id, query   string
		body        string
		contentType string
	}{
		{0, "", "limit=2", "", ""},
		{0, "", "limit=0&cursor=abc", "", ""},
		{0, "", "cursor=%00", "", ""},
		{1, "", "", "", ""},
		{1, "crs_\xff", "", "", ""},
		{1, "crs_%00", "", "", ""},
		{2, "", "email=fuzz@example.com&updatedSince=2026-01-01T00:00:00Z", "", ""},
		{2, "", "email=%00&updatedSince=%FF", "", ""},
		{3, "", "", `{"email":"new@example.com","firstName":"Ada","metadata":{"plan":"pro"}}`, ct},
		{3, "", "", `{"email":"a\u0000@example.com"}`, ct},
		{3, "", "", "{\"email\":\"b@example.com\",\"lastName\":\"\xed\xa0\x80\"}", ct},
		{3, "", "", `{"email":"c@example.com","email":"d@example.com"}`, ct},
		{3, "", "", `{"EMAIL":"c@example.com"}`, "application/jsonx"},
		{4, "", "", `{"studentId":"stu_x","courseId":"crs_y"}`, ct},
		{4, "", "", `{"studentId":"\u0000","courseId":"\u0001"}`, ct},
		{5, "", "status=paid&studentId=stu_x&createdSince=2026-01-01T00:00:00Z&createdBefore=2027-01-01T00:00:00Z", "", ""},
		{5, "", "studentId=%00&status=%FF", "", ""},
		{6, "", "from=2026-11-01&to=2026-11-30", "", ""},
		{6, "", "from=%00&to=9999-99-99", "", ""},
		{6, "", "from=0001-01-01&to=9999-12-31", "", ""},
		{6, "", "from=0000-01-01&to=0000-01-02", "", ""},
		{5, "", "createdSince=0001-01-01T00:00:00Z&createdBefore=9999-12-31T23:59:59.999999999Z&updatedSince=0000-01-01T00:00:00%2B23:59", "", ""},
		{2, "", "updatedSince=9999-12-31T23:59:59-23:59", "", ""},
	}
	for _, s := range seeds {
		f.Add(s.route, s.id, s.query, []byte(s.body), s.contentType)
	}
	worlds := fuzzWorlds(f)
	f.Fuzz(func(t *testing.T, route uint8, id, query string, body []byte, contentType string) {
		r := publicFuzzRoutes[int(route)%len(publicFuzzRoutes)]
		for _, w := range worlds {
			expectSane(t, w.name, w.public, r.method, w.uri(r, "", id, query), body, contentType)
		}
	})
}

var operatorFuzzRoutes = []fuzzRoute{
	{http.MethodPost, "/internal/v1/workspaces", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/courses", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/courses/{id}", "course"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/courses/{id}/modules", "draft"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/modules/{id}/lessons", "module"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/courses/{id}/publish", "draft"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/courses/{id}/archive", "draft"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/students", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/students/{id}", "student"},
	{http.MethodPatch, "/internal/v1/workspaces/{org}/students/{id}", "student"},
	{http.MethodDelete, "/internal/v1/workspaces/{org}/students/{id}", "student"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/enrollments", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/enrollments/{id}", "enrollment"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/enrollments/{id}/revoke", "enrollment"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/progress", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/orders", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/orders/{id}", "order"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/orders/{id}/refunds", "order"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/live-sessions", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/live-sessions/{id}/start", "live"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/live-sessions/{id}/end", "live"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/recordings", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/certificates", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/keys", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/keys", ""},
	{http.MethodDelete, "/internal/v1/workspaces/{org}/keys/{id}", "key"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/webhooks", ""},
	{http.MethodGet, "/internal/v1/workspaces/{org}/webhooks", ""},
	{http.MethodPost, "/internal/v1/workspaces/{org}/webhooks/{id}/disable", "webhook"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/webhooks/{id}/enable", "webhook"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/webhooks/{id}/rotate-secret", "webhook"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/webhooks/{id}/recover", "webhook"},
	{http.MethodGet, "/internal/v1/workspaces/{org}/webhooks/{id}/deliveries", "webhook"},
	{http.MethodPost, "/internal/v1/workspaces/{org}/deliveries/{id}/resend", "delivery"},
}

// FuzzOperatorAPI: route (an index), the workspace and id segments, the raw query
// string, the body and its Content-Type, on every database.
func FuzzOperatorAPI(f *testing.F) {
	const ct = "application/json"
	bodies := map[string]string{
		"/internal/v1/workspaces":                             `{"name":"Acme","ownerEmail":"owner@example.com"}`,
		"/internal/v1/workspaces/{org}/courses":               `{"title":"Go","slug":"go","description":"line 1\nline 2"}`,
		"/internal/v1/workspaces/{org}/courses/{id}/modules":  `{"title":"Module"}`,
		"/internal/v1/workspaces/{org}/modules/{id}/lessons":  `{"title":"Lesson","type":"video","durationSeconds":60}`,
		"/internal/v1/workspaces/{org}/students":              `{"email":"s@example.com","metadata":{"k":"v"}}`,
		"/internal/v1/workspaces/{org}/students/{id}":         `{"firstName":"Ada","metadata":{"a":"b"}}`,
		"/internal/v1/workspaces/{org}/enrollments":           `{"studentId":"stu_x","courseId":"crs_x"}`,
		"/internal/v1/workspaces/{org}/progress":              `{"studentId":"stu_x","lessonId":"les_x"}`,
		"/internal/v1/workspaces/{org}/orders":                `{"studentId":"stu_x","currency":"usd","items":[{"courseId":"crs_x","amount":100}]}`,
		"/internal/v1/workspaces/{org}/orders/{id}/refunds":   `{"amount":1}`,
		"/internal/v1/workspaces/{org}/live-sessions":         `{"courseId":"crs_x","title":"Live"}`,
		"/internal/v1/workspaces/{org}/recordings":            `{"liveSessionId":"lvs_x","durationSeconds":60}`,
		"/internal/v1/workspaces/{org}/certificates":          `{"studentId":"stu_x","courseId":"crs_x"}`,
		"/internal/v1/workspaces/{org}/keys":                  `{"name":"k","scopes":["read:courses"],"perMinute":10}`,
		"/internal/v1/workspaces/{org}/webhooks":              `{"url":"https://hooks.example.com/x","events":["order.paid"]}`,
		"/internal/v1/workspaces/{org}/webhooks/{id}/recover": `{"since":"2026-11-01T00:00:00Z"}`,
	}
	for i, r := range operatorFuzzRoutes {
		route := uint8(i)
		body := bodies[r.path]
		f.Add(route, "", "", "", []byte(body), ct)
		if body != "" {
			f.Add(route, "", "", "", []byte(body[:len(body)-1]+`,"x":"\u0000"}`), ct)
		}
		if r.idKind != "" {
			f.Add(route, "", "x\xff", "", []byte(body), ct)
		}
	}
	f.Add(uint8(1), "org_\xc3", "", "", []byte(nil), "")
	f.Add(uint8(33), "", "", "status=failed&limit=1", []byte(nil), "")
	f.Add(uint8(33), "", "", "status=%00&cursor=%FF", []byte(nil), "")
	f.Add(uint8(2), "", "", "", []byte(`{"title":"T","description":"\u0000"}`), ct)
	f.Add(uint8(16), "", "", "", []byte(`{"studentId":"stu_x","currency":"usd","items":[{"courseId":"crs_x","amount":1e400}]}`), ct)
	f.Add(uint8(32), "", "", "", []byte(`{"since":"2026-13-01T00:00:00Z"}`), ct)
	f.Add(uint8(32), "", "", "", []byte(`{"since":"0001-01-01T00:00:00Z","until":"9999-12-31T23:59:59Z"}`), ct)
	f.Add(uint8(32), "", "", "", []byte(`{"since":"0000-01-01T00:00:00-23:59"}`), ct)
	f.Add(uint8(18), "", "", "", []byte(`{"amount":9223372036854775807}`), ct)
	f.Add(uint8(16), "", "", "", []byte(`{"studentId":"stu_x","currency":"usd","items":[{"courseId":"crs_x","amount":9223372036854775807}]}`), ct)
	f.Add(uint8(24), "", "", "", []byte(`{"name":"k","scopes":["read:courses"],"perMinute":9223372036854775807,"perDay":9223372036854775807}`), ct)
	worlds := fuzzWorlds(f)
	f.Fuzz(func(t *testing.T, route uint8, org, id, query string, body []byte, contentType string) {
		r := operatorFuzzRoutes[int(route)%len(operatorFuzzRoutes)]
		for _, w := range worlds {
			expectSane(t, w.name, w.operator, r.method, w.uri(r, org, id, query), body, contentType)
		}
	})
}
