package web

import (
	"errors"
	"net/http"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// withQuery runs fn on a fiber context whose request has the query string query.
func withQuery(t testing.TB, query string, fn func(c *fiber.Ctx)) {
	t.Helper()
	app := fiber.New()
	var req fasthttp.RequestCtx
	req.Request.SetRequestURI("/x?" + query)
	c := app.AcquireCtx(&req)
	defer app.ReleaseCtx(c)
	fn(c)
}

// paramProblem is OnlyParams' answer as (status, param), or (0, "") for none.
func paramProblem(t testing.TB, query string, allowed ...string) (int, string) {
	t.Helper()
	var status int
	var param string
	withQuery(t, query, func(c *fiber.Ctx) {
		err := OnlyParams(c, allowed...)
		var p *Problem
		switch {
		case err == nil:
		case errors.As(err, &p):
			status, param = p.Status, p.Param
		default:
			t.Fatalf("OnlyParams(%q): %v is no Problem", query, err)
		}
	})
	return status, param
}

func TestOnlyParams(t *testing.T) {
	for _, c := range []struct {
		query   string
		allowed []string
		status  int
		param   string
	}{
		{"", nil, 0, ""},
		{"limit=5&cursor=abc", []string{"limit", "cursor"}, 0, ""},
		{"cursor=abc", []string{"limit", "cursor", "email"}, 0, ""},
		{"limt=5", []string{"limit", "cursor"}, http.StatusUnprocessableEntity, "limt"},
		{"limit=5", nil, http.StatusUnprocessableEntity, "limit"},
		{"limit=1&limit=2", []string{"limit"}, http.StatusUnprocessableEntity, "limit"},
		{"limit=1&cursor=a&cursor=b&limit=2", []string{"limit", "cursor"}, http.StatusUnprocessableEntity, "cursor"},
		// An unknown parameter is named before a repeated one, wherever it stands.
		{"limit=1&limit=2&x=1", []string{"limit"}, http.StatusUnprocessableEntity, "x"},
		{"x=1&x=2", []string{"limit"}, http.StatusUnprocessableEntity, "x"},
		// The first unknown one is named.
		{"a=1&b=2", []string{"limit"}, http.StatusUnprocessableEntity, "a"},
		// A name is whole: a prefix of an allowed name is unknown.
		{"lim=1", []string{"limit"}, http.StatusUnprocessableEntity, "lim"},
	} {
		status, param := paramProblem(t, c.query, c.allowed...)
		if status != c.status || param != c.param {
			t.Errorf("OnlyParams(%q, %q) = %d %q, want %d %q", c.query, c.allowed, status, param, c.status, c.param)
		}
	}
}

// The check runs on every list request: it allocates nothing when the query is valid.
func TestOnlyParamsAllocatesNothingOnAValidQuery(t *testing.T) {
	withQuery(t, "limit=25&cursor=abc&email=a%40example.com", func(c *fiber.Ctx) {
		allocs := testing.AllocsPerRun(100, func() {
			if err := OnlyParams(c, "limit", "cursor", "email", "updatedSince"); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Fatalf("OnlyParams allocates %v times a request, want 0", allocs)
		}
	})
}

func BenchmarkOnlyParams(b *testing.B) {
	withQuery(b, "limit=25&cursor=abc&email=a%40example.com", func(c *fiber.Ctx) {
		b.ReportAllocs()
		for b.Loop() {
			if err := OnlyParams(c, "limit", "cursor", "email", "updatedSince"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
