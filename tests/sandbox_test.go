package tests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/cli/trigger"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// openSandbox opens ws's sandbox through the operator API and returns its id.
func openSandbox(t *testing.T, env *testenv.Env, ws string, want int) string {
	t.Helper()
	var sb struct {
		ID        string
		Livemode  bool
		SandboxOf string
	}
	env.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/sandbox", map[string]any{}).Expect(t, want).Decode(t, &sb)
	if sb.Livemode || sb.SandboxOf != ws || !strings.HasPrefix(sb.ID, "org_test_") {
		t.Fatalf("sandbox of %s: %+v", ws, sb)
	}
	return sb.ID
}

type sandboxItem struct {
	ID       string `json:"id"`
	Livemode *bool  `json:"livemode"`
}

// listIDs GETs a list and checks every item's livemode.
func listIDs(t *testing.T, env *testenv.Env, key, path string, livemode bool) []string {
	t.Helper()
	var page struct{ Data []sandboxItem }
	env.API(key).Get(t, path).Expect(t, http.StatusOK).Decode(t, &page)
	var ids []string
	for _, it := range page.Data {
		if it.Livemode == nil || *it.Livemode != livemode {
			t.Fatalf("%s: item %s has livemode %v, want %v", path, it.ID, it.Livemode, livemode)
		}
		ids = append(ids, it.ID)
	}
	return ids
}

// A sandbox is a workspace of its own: seeded so that every GET answers something, and
// invisible to live keys as live data is to sandbox keys, by list and by id.
func TestSandboxIsSeededAndIsolatedFromLive(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, liveKey := env.CreateKey(t, ws, testenv.AllScopes()...)
		liveCourse := env.CreatePublishedCourse(t, ws, "Live course")
		liveStudent := env.CreateStudent(t, ws, "live@example.com")
		liveOrder := env.PlaceOrder(t, ws, liveStudent, "usd", testenv.OrderItem{CourseID: liveCourse, Amount: 1000}).ID

		sb := openSandbox(t, env, ws, http.StatusCreated)
		if again := openSandbox(t, env, ws, http.StatusOK); again != sb {
			t.Fatalf("second open gave %s, first %s", again, sb)
		}
		_, testKey := env.CreateKey(t, sb, testenv.AllScopes()...)
		if !strings.HasPrefix(testKey, "svc_test_") || strings.HasPrefix(liveKey, "svc_test_") {
			t.Fatalf("keys: live %q.., test %q..", liveKey[:9], testKey[:9])
		}

		// The seed: every list of the sandbox answers something, all of it livemode false.
		lists := []string{"/api/v1/courses", "/api/v1/students", "/api/v1/orders"}
		sandboxIDs := map[string][]string{}
		for _, path := range lists {
			ids := listIDs(t, env, testKey, path, false)
			if len(ids) == 0 {
				t.Fatalf("seeded sandbox: %s is empty", path)
			}
			sandboxIDs[path] = ids
		}
		// Live lists show only live data, livemode true, and the reverse.
		liveIDs := map[string][]string{}
		for _, path := range lists {
			liveIDs[path] = listIDs(t, env, liveKey, path, true)
			for _, id := range liveIDs[path] {
				if contains(sandboxIDs[path], id) {
					t.Fatalf("%s: %s listed for both live and sandbox keys", path, id)
				}
			}
		}
		for path, want := range map[string]string{"/api/v1/courses": liveCourse, "/api/v1/students": liveStudent, "/api/v1/orders": liveOrder} {
			if !contains(liveIDs[path], want) {
				t.Fatalf("%s: live key misses %s", path, want)
			}
		}
		// By id: each side's records are 404 to the other side, and livemode on the fetch.
		for path, ids := range sandboxIDs {
			var one sandboxItem
			env.API(testKey).Get(t, path+"/"+ids[0]).Expect(t, http.StatusOK).Decode(t, &one)
			if one.Livemode == nil || *one.Livemode {
				t.Fatalf("%s/%s: livemode %v in the sandbox", path, ids[0], one.Livemode)
			}
			env.API(liveKey).Get(t, path+"/"+ids[0]).ExpectError(t, http.StatusNotFound, "not_found")
		}
		for path, id := range map[string]string{"/api/v1/courses": liveCourse, "/api/v1/students": liveStudent, "/api/v1/orders": liveOrder} {
			env.API(testKey).Get(t, path+"/"+id).ExpectError(t, http.StatusNotFound, "not_found")
			var one sandboxItem
			env.API(liveKey).Get(t, path+"/"+id).Expect(t, http.StatusOK).Decode(t, &one)
			if one.Livemode == nil || !*one.Livemode {
				t.Fatalf("%s/%s: livemode %v on live data", path, id, one.Livemode)
			}
		}
		// Writes land on their own side: a sandbox student is not found by the live key's filter.
		env.API(testKey).Post(t, "/api/v1/students", map[string]any{"email": "live@example.com"}).Expect(t, http.StatusCreated)
		var byEmail struct{ Data []sandboxItem }
		env.API(liveKey).Get(t, "/api/v1/students?email=live@example.com").Expect(t, http.StatusOK).Decode(t, &byEmail)
		if len(byEmail.Data) != 1 || byEmail.Data[0].ID != liveStudent {
			t.Fatalf("live filter by email: %+v", byEmail.Data)
		}
		// The analytics summary answers in the sandbox too.
		env.API(testKey).Get(t, "/api/v1/analytics/summary").Expect(t, http.StatusOK)
	})
}

// Every public type can be triggered in the sandbox; its event goes to the sandbox's
// endpoint only, with livemode false; a live key may not trigger anything.
func TestTestHelpersTriggerEveryTypeIntoTheSandboxOnly(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL, fx.Decorate(func(c compose.Config) compose.Config { c.WebhookAllowPrivate = true; return c }))
		ws := env.CreateWorkspace(t, "Academy")
		_, liveKey := env.CreateKey(t, ws, "read:courses")
		sb := openSandbox(t, env, ws, http.StatusCreated)
		_, testKey := env.CreateKey(t, sb, "read:courses") // any scope: the key's mode is the guard

		var types []string
		for _, typ := range events.PublicTypes {
			types = append(types, string(typ))
		}
		liveRC, sandboxRC := testenv.NewReceiver(t), testenv.NewReceiver(t)
		env.CreateWebhook(t, ws, liveRC.URL, types...)
		env.CreateWebhook(t, sb, sandboxRC.URL, types...)

		env.API(liveKey).Post(t, "/api/v1/test_helpers/events", map[string]string{"type": "order.paid"}).
			ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(testKey).Post(t, "/api/v1/test_helpers/events", map[string]string{"type": "order.shipped"}).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		env.API(testKey).Post(t, "/api/v1/test_helpers/events", map[string]string{"type": "lesson.completed"}).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request") // internal types are not triggered

		for _, typ := range types {
			var res struct {
				Type       string
				Livemode   *bool
				ResourceID string
			}
			env.API(testKey).Post(t, "/api/v1/test_helpers/events", map[string]string{"type": typ}).
				Expect(t, http.StatusCreated).Decode(t, &res)
			if res.Type != typ || res.Livemode == nil || *res.Livemode || res.ResourceID == "" {
				t.Fatalf("trigger %s: %+v", typ, res)
			}
			// The event is in the outbox, in the sandbox, about that resource.
			found := false
			for _, ev := range env.OutboxEventsOfType(t, events.Type(typ)) {
				if ev.WorkspaceID == sb && strings.Contains(string(ev.Data), res.ResourceID) {
					found = true
				}
				if ev.WorkspaceID == ws {
					t.Fatalf("trigger %s wrote event %s to the live workspace", typ, ev.ID)
				}
			}
			if !found {
				t.Fatalf("trigger %s: no %s event about %s in the sandbox", typ, typ, res.ResourceID)
			}
		}

		// The sandbox endpoint receives every type, livemode false; the live one nothing.
		deadline := time.Now().Add(20 * time.Second)
		for {
			got := map[string]bool{}
			for _, r := range sandboxRC.Got() {
				var env struct {
					Type        string
					Livemode    *bool
					WorkspaceID string `json:"workspace_id"`
				}
				if err := json.Unmarshal(r.Body, &env); err != nil {
					t.Fatal(err)
				}
				if env.Livemode == nil || *env.Livemode || env.WorkspaceID != sb {
					t.Fatalf("sandbox delivery %s", r.Body)
				}
				got[env.Type] = true
			}
			if len(got) == len(types) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("sandbox endpoint got %d of %d types after 20 s: %v", len(got), len(types), got)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n := len(liveRC.Got()); n != 0 {
			t.Fatalf("the live endpoint got %d sandbox deliveries: %s", n, liveRC.Got()[0].Body)
		}

		// A live event reaches only the live endpoint, livemode true.
		env.CreateStudent(t, ws, "live@example.com")
		deadline = time.Now().Add(20 * time.Second)
		for len(liveRC.Got()) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("live event not delivered within 20 s")
			}
			time.Sleep(20 * time.Millisecond)
		}
		var live struct{ Livemode *bool }
		if err := json.Unmarshal(liveRC.Got()[0].Body, &live); err != nil || live.Livemode == nil || !*live.Livemode {
			t.Fatalf("live delivery %s", liveRC.Got()[0].Body)
		}
		for _, r := range sandboxRC.Got() {
			if strings.Contains(string(r.Body), fmt.Sprintf("%q", ws)) {
				t.Fatalf("the sandbox endpoint got a live event: %s", r.Body)
			}
		}
	})
}

// `creatorapi trigger` (ports/cli/trigger) over a real listener: a sandbox key triggers,
// a live key is refused with the API's 403 forbidden.
func TestTriggerClientCallsTheTestHelper(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, liveKey := env.CreateKey(t, ws, "read:orders")
		_, testKey := env.CreateKey(t, openSandbox(t, env, ws, http.StatusCreated), "read:orders")
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = ln.Close() })
		go func() { _ = fasthttp.Serve(ln, env.Public.App.Handler()) }()
		base := "http://" + ln.Addr().String()
		ctx := context.Background()

		res, err := trigger.Event(ctx, http.DefaultClient, base, testKey, "order.paid")
		if err != nil || res.Type != "order.paid" || res.Livemode || !strings.HasPrefix(res.ResourceID, "ord_") {
			t.Fatalf("trigger with a sandbox key: %+v, %v", res, err)
		}
		env.API(testKey).Get(t, "/api/v1/orders/"+res.ResourceID).Expect(t, http.StatusOK)
		env.API(liveKey).Get(t, "/api/v1/orders/"+res.ResourceID).ExpectError(t, http.StatusNotFound, "not_found")

		_, err = trigger.Event(ctx, http.DefaultClient, base, liveKey, "order.paid")
		var apiErr *trigger.APIError
		if !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden || apiErr.Code != "forbidden" {
			t.Fatalf("trigger with a live key: %v", err)
		}
	})
}

// Two first opens at once (two first test keys) make one sandbox, seeded once.
func TestSandboxOpensOnceUnderConcurrency(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		const n = 4
		ids := make(chan string, n)
		statuses := make(chan int, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := env.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/sandbox", map[string]any{})
				var sb struct{ ID string }
				_ = json.Unmarshal(r.Body, &sb)
				ids <- sb.ID
				statuses <- r.Status
			}()
		}
		wg.Wait()
		close(ids)
		close(statuses)
		created := 0
		for s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusOK:
			default:
				t.Fatalf("open sandbox: status %d", s)
			}
		}
		first := ""
		for id := range ids {
			if first == "" {
				first = id
			}
			if id != first || id == "" {
				t.Fatalf("two sandboxes: %s and %s", first, id)
			}
		}
		if created != 1 {
			t.Fatalf("%d opens reported creating the sandbox, want 1", created)
		}
		var workspaces, seeded int
		if err := env.DB.Reader.Get(&workspaces, env.DB.Reader.Rebind(`SELECT COUNT(*) FROM workspaces WHERE sandbox_of = ?`), ws); err != nil || workspaces != 1 {
			t.Fatalf("sandbox rows: %d, %v", workspaces, err)
		}
		if err := env.DB.Reader.Get(&seeded, env.DB.Reader.Rebind(`SELECT COUNT(*) FROM students WHERE workspace_id = ?`), first); err != nil || seeded == 0 || seeded > 10 {
			t.Fatalf("seeded students: %d, %v (seeded once: a few)", seeded, err)
		}
	})
}
