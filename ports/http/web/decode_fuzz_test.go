package web

import (
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// fuzzBody has every shape the request bodies use: strings (one multiline), pointers,
// numbers, a time, a map and a slice of objects.
type fuzzBody struct {
	Email       string            `json:"email" validate:"required,max=254"`
	Description string            `json:"description" validate:"max=5000" text:"multiline"`
	Amount      *int64            `json:"amount" validate:"omitempty,gte=0"`
	Count       int               `json:"count" validate:"gte=0"`
	Since       *time.Time        `json:"since"`
	Metadata    map[string]string `json:"metadata" validate:"max=50"`
	Items       []struct {
		CourseID string `json:"courseId" validate:"required,max=64"`
	} `json:"items" validate:"max=50,dive"`
}

// FuzzDecodeBody: whatever the body and Content-Type, Body either accepts a value
// whose every string passes TextFault, or answers a 422 naming a field, never
// anything else and never a panic.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"email":"a@example.com","description":"a\nb","amount":1,"count":2,"since":"2026-11-21T10:00:00Z","metadata":{"k":"v"},"items":[{"courseId":"c"}]}`,
		`{"email":"a@example.com","email":"b@example.com"}`,
		`{"Email":"a@example.com"}`,
		`{"email":"a\u0000"}`,
		"{\"email\":\"\xff\"}",
		`{"email":"x","metadata":{"a\u0001":"b"}}`,
		`{"email":"x","items":[{"courseId":1}]}`,
		`[]`, `null`, `{"email":"x"} {}`, `{"email":`, `{"amount":1e999}`, `{"since":"yesterday"}`,
	} {
		f.Add([]byte(seed), "application/json")
	}
	f.Add([]byte(`{"email":"a@example.com"}`), "application/jsonx")
	f.Add([]byte(`{"email":"a@example.com"}`), "application/json; charset=utf-8")
	dec := NewDecoder()
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		var fctx fasthttp.RequestCtx
		fctx.Request.SetBody(body)
		if contentType != "" {
			fctx.Request.Header.SetContentType(contentType)
		}
		c := app.AcquireCtx(&fctx)
		defer app.ReleaseCtx(c)
		var dst fuzzBody
		err := dec.Body(c, &dst)
		if err == nil {
			if cerr := checkFields(reflect.ValueOf(&dst), "", false); cerr != nil {
				t.Fatalf("accepted a body holding bad text: %v", cerr)
			}
			return
		}
		var p *Problem
		if !errors.As(err, &p) || p.Status != http.StatusUnprocessableEntity || p.Code != CodeInvalidRequest || p.Param == "" || p.Message == "" {
			t.Fatalf("body %q: error %v is not a 422 naming a field", body, err)
		}
	})
}
