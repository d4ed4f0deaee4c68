package benchkit

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Pages times GET requests through a fiber app in process (app.Test), signed in with a
// session cookie when asked: the dashboard benchmarks' page timer.
type Pages struct {
	App      *fiber.App
	Cookie   string // "name=value", sent when a request asks for it
	Requests int    // measured requests per page, after a tenth more that warm caches
}

// Get times one request; anything but 200 is an error.
func (p Pages) Get(path string, withCookie bool) (time.Duration, error) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if withCookie {
		req.Header.Set("Cookie", p.Cookie)
	}
	t0 := time.Now()
	res, err := p.App.Test(req, -1)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	d := time.Since(t0)
	if res.StatusCode != http.StatusOK {
		return d, fmt.Errorf("GET %s: %d", path, res.StatusCode)
	}
	return d, nil
}

// Measure returns the p50 and p99 of Requests sequential requests to path.
func (p Pages) Measure(path string, withCookie bool) (p50, p99 time.Duration, err error) {
	var lat []time.Duration
	for i := range p.Requests + p.Requests/10 {
		d, err := p.Get(path, withCookie)
		if err != nil {
			return 0, 0, err
		}
		if i >= p.Requests/10 { // the first tenth warms caches and prepared statements
			lat = append(lat, d)
		}
	}
	return Percentile(lat, 50), Percentile(lat, 99), nil
}
