package docs

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
)

// The page is rendered on the first request, once: a start pays nothing for it, and a
// document that cannot be read fails that request (500), not the process.
func TestReferenceRendersOnTheFirstRequestOnce(t *testing.T) {
	loads := 0
	ref := NewReference(func() ([]byte, error) {
		loads++
		return []byte(`{"openapi":"3.1.0","info":{"title":"Reference test","version":"9.9.9"},"paths":{}}`), nil
	})
	if loads != 0 {
		t.Fatalf("the document was read %d times before any request", loads)
	}
	app := fiber.New()
	Mount(app, ref)
	for range 2 {
		status, body := get(t, app, Path)
		if status != http.StatusOK || !strings.Contains(body, "Reference test") {
			t.Fatalf("GET %s: %d, title missing from %.200q", Path, status, body)
		}
	}
	if loads != 1 {
		t.Fatalf("the document was read %d times for two requests, want 1", loads)
	}

	broken := NewReference(func() ([]byte, error) { return nil, errors.New("no document") })
	app = fiber.New()
	Mount(app, broken)
	if status, _ := get(t, app, Path); status != http.StatusInternalServerError {
		t.Fatalf("GET %s with an unreadable document: %d, want 500", Path, status)
	}
}

func get(t *testing.T, app *fiber.App, path string) (int, string) {
	t.Helper()
	resp, err := app.Test(httptest.NewRequest(http.MethodGet, path, nil))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}
