package tests

import (
	"net/http"
	"sync"
	"testing"

	"github.com/creatorapi/creatorapi/tests/contract"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every response of this suite under /api/v1 and every webhook delivery its receivers
// get is checked against the OpenAPI document: a field renamed in a Go view, a status
// or error code the document does not give, a header missing, fails the test that
// caused it.
func init() {
	testenv.Observe(testenv.Observers{
		Response: func(t testing.TB, req *http.Request, _ []byte, resp testenv.Response) {
			for _, p := range loadContract(t).CheckResponse(req, resp.Status, resp.Header, resp.Body) {
				t.Errorf("OpenAPI: %s %s answered %d outside the document: %s\nbody: %.600s", req.Method, req.URL, resp.Status, p, resp.Body)
			}
		},
		Delivery: func(t testing.TB, got testenv.Received) {
			for _, p := range loadContract(t).CheckDelivery(got.Header, got.Body) {
				t.Errorf("OpenAPI webhooks: delivery outside the document: %s\nbody: %.600s", p, got.Body)
			}
		},
	})
}

var documentContract = sync.OnceValues(contract.Load)

func loadContract(t testing.TB) *contract.Contract {
	c, err := documentContract()
	if err != nil {
		t.Fatalf("load the OpenAPI document: %v", err)
	}
	return c
}
