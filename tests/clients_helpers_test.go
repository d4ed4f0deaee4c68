package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"testing"

	openapi_types "github.com/oapi-codegen/runtime/types"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/clients/go/creatorapi"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// startServing starts the service on databaseURL with its real listeners (as serve runs
// them) and returns it with the public API's base URL.
func startServing(t *testing.T, databaseURL string) (*testenv.Env, string) {
	t.Helper()
	public, admin := testenv.FreeAddr(t), testenv.FreeAddr(t)
	env := testenv.Start(t, databaseURL,
		fx.Decorate(func(cfg compose.Config) compose.Config {
			cfg.HTTPAddr, cfg.AdminAddr = public, admin
			return cfg
		}),
		compose.Listen(),
	)
	return env, "http://" + public
}

// lossyProxy stands between a client and the service and loses a share of the requests,
// drawn from a seeded generator (the clients send one request at a time, so a seed gives
// the same run every time): half of the losses never reach the service, the other half
// reach it and lose the answer (the connection is closed after the service answered).
type lossyProxy struct {
	target *httputil.ReverseProxy
	loss   float64

	mu                                           sync.Mutex
	rng                                          *rand.Rand
	received, lostBefore, lostAfter, forwardedOK int
}

func newLossyProxy(t *testing.T, targetURL string, loss float64, seed uint64) (*lossyProxy, string) {
	t.Helper()
	u, err := url.Parse(targetURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &lossyProxy{target: httputil.NewSingleHostReverseProxy(u), loss: loss, rng: rand.New(rand.NewPCG(seed, seed))}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

func (p *lossyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.received++
	draw := p.rng.Float64()
	p.mu.Unlock()
	switch {
	case draw < p.loss/2: // lost on the way in
		p.count(&p.lostBefore)
		hangUp(w)
	case draw < p.loss: // the service answers; the answer is lost
		p.target.ServeHTTP(httptest.NewRecorder(), r)
		p.count(&p.lostAfter)
		hangUp(w)
	default:
		p.target.ServeHTTP(w, r)
		p.count(&p.forwardedOK)
	}
}

func (p *lossyProxy) count(n *int) {
	p.mu.Lock()
	*n++
	p.mu.Unlock()
}

func (p *lossyProxy) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("%d requests: %d lost before the service, %d answers lost, %d answered", p.received, p.lostBefore, p.lostAfter, p.forwardedOK)
}

// hangUp closes the client's connection without an answer.
func hangUp(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(fmt.Errorf("lossy proxy: hijack: %w", err)) // net/http recovers and drops the connection
	}
	_ = conn.Close()
}

// dailyUsed asks the service directly (not through a proxy) how many of the key's daily
// requests are used, the asking one excluded.
func dailyUsed(t *testing.T, baseURL, key string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, baseURL+"/api/v1/students?limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	limit, err1 := strconv.Atoi(res.Header.Get("X-RateLimit-Daily-Limit"))
	left, err2 := strconv.Atoi(res.Header.Get("X-RateLimit-Daily-Remaining"))
	if err1 != nil || err2 != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("daily headers: status %d, %q of %q", res.StatusCode, res.Header.Get("X-RateLimit-Daily-Remaining"), res.Header.Get("X-RateLimit-Daily-Limit"))
	}
	if limit != 1000 {
		t.Fatalf("the key's daily limit is %d, want the default 1000", limit)
	}
	return limit - left - 1
}

// crmContacts are n contacts of a CRM: the first `existing` have the addresses of students
// the workspace already has (the sync updates them), the others are new.
func crmContacts(n int) []creatorapi.StudentChanges {
	out := make([]creatorapi.StudentChanges, n)
	for i := range out {
		email := openapi_types.Email(fmt.Sprintf("contact%03d@example.com", i))
		first, last, ext := fmt.Sprintf("First%03d", i), fmt.Sprintf("Last%03d", i), fmt.Sprintf("crm-%03d", i)
		meta := map[string]*string{"source": ptr("crm"), "tier": ptr(strconv.Itoa(i % 3))}
		out[i] = creatorapi.StudentChanges{Email: &email, FirstName: &first, LastName: &last, ExternalId: &ext, Metadata: &meta}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// checkSynced lists the workspace's students with the Go client (another key) and fails
// unless there is exactly one student per contact with every field the contact set.
func checkSynced(t *testing.T, baseURL, readKey string, contacts []creatorapi.StudentChanges) {
	t.Helper()
	c, err := creatorapi.New(baseURL, readKey, creatorapi.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byEmail := map[string]creatorapi.Student{}
	n := 0
	for s, err := range c.Students(context.Background(), creatorapi.ListStudentsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		byEmail[s.Email] = s
	}
	if n != len(contacts) || len(byEmail) != len(contacts) {
		t.Fatalf("%d students (%d addresses) for %d contacts: duplicates or losses", n, len(byEmail), len(contacts))
	}
	for _, ct := range contacts {
		s, ok := byEmail[string(*ct.Email)]
		if !ok {
			t.Fatalf("contact %s was not synced", *ct.Email)
		}
		if s.FirstName != *ct.FirstName || s.LastName != *ct.LastName || s.ExternalId != *ct.ExternalId ||
			s.Metadata["source"] != "crm" || s.Metadata["tier"] != *(*ct.Metadata)["tier"] {
			t.Fatalf("contact %s not applied: %+v", *ct.Email, s)
		}
	}
}
