package testenv

import (
	"net/http"
	"sync"
	"testing"
)

// Observers see every exchange the helpers make, so that a whole suite can be checked
// against a contract (the OpenAPI document) without touching each test. Opt in with
// Observe, typically from an init function of the test package; nothing observes by
// default. This is process-wide by nature: tests call helpers, not a shared object.
type Observers struct {
	// Response sees each request a Client sent (its body in reqBody) and the answer.
	Response func(t testing.TB, req *http.Request, reqBody []byte, resp Response)
	// Delivery sees each request a Receiver got.
	Delivery func(t testing.TB, got Received)
}

var observers struct {
	sync.RWMutex
	list []Observers
}

// Observe registers o for the rest of the process.
func Observe(o Observers) {
	observers.Lock()
	defer observers.Unlock()
	observers.list = append(observers.list, o)
}

func observeResponse(t testing.TB, req *http.Request, reqBody []byte, resp Response) {
	observers.RLock()
	defer observers.RUnlock()
	for _, o := range observers.list {
		if o.Response != nil {
			o.Response(t, req, reqBody, resp)
		}
	}
}

func observeDelivery(t testing.TB, got Received) {
	observers.RLock()
	defer observers.RUnlock()
	for _, o := range observers.list {
		if o.Delivery != nil {
			o.Delivery(t, got)
		}
	}
}
