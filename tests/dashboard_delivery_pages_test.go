package tests

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// seedDeliveries writes n deliveries to endpoint id: status by i%3 (succeeded, failed,
// failing), type by i%2, two deliveries per creation time (the keyset's tie-break).
func seedDeliveries(t *testing.T, tx platform.Transactor, subs webhooks.Repository, store webhooks.Deliveries, ws, id string, n int) {
	t.Helper()
	ctx := context.Background()
	sub, err := subs.Get(ctx, ws, id)
	if err != nil {
		t.Fatal(err)
	}
	types := []string{"order.paid", "student.created"}
	err = tx.WithinTx(ctx, func(ctx context.Context) error {
		for i := 0; i < n; i++ {
			at := testenv.Epoch.Add(-time.Duration(i/2) * time.Second)
			d := webhooks.NewDelivery(fmt.Sprintf("evd_seed%06d", i), sub, fmt.Sprintf("evt_seed%06d", i), types[i%2], []byte(`{}`), at)
			switch i % 3 {
			case 0:
				d.Status, d.Attempts, d.NextAttemptAt = webhooks.DeliverySucceeded, 1, nil
			case 1:
				d.Status, d.Attempts, d.NextAttemptAt = webhooks.DeliveryFailed, 7, nil
			case 2:
				next := testenv.Epoch.Add(time.Hour)
				d.Status, d.Attempts, d.NextAttemptAt = webhooks.Pending, 2, &next
			}
			if _, err := store.AddIfAbsent(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var (
	rowID    = regexp.MustCompile(`<code class="small">(evd_[a-z0-9]+)</code>`)
	olderRef = regexp.MustCompile(`/deliveries\?([^"]+)">Older deliveries`)
)

// walkLog follows "Older deliveries" from query and returns every id listed, in order.
func walkLog(t *testing.T, p *testenv.Person, base, query string) (ids []string, pages int) {
	t.Helper()
	next := query
	for {
		page := body(p.Get(t, base+"/deliveries?"+next).Expect(t, http.StatusOK))
		pages++
		for _, m := range rowID.FindAllStringSubmatch(page, -1) {
			ids = append(ids, m[1])
		}
		m := olderRef.FindStringSubmatch(page)
		if m == nil {
			return ids, pages
		}
		if n := html.UnescapeString(m[1]); n != next && pages < 1000 {
			next = n
			continue
		}
		t.Fatalf("the older link does not move on after %d pages: %s", pages, m[1])
	}
}

func TestDashboardDeliveryLogFiltersAndPagesTenThousand(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var m members.Application
		var tx platform.Transactor
		var subs webhooks.Repository
		var store webhooks.Deliveries
		w := testenv.StartWebhooks(t, dbURL, nil, fx.Populate(&m, &tx, &subs, &store))
		d := dashEnv{Env: w.Env, Members: m}
		ws := d.CreateWorkspace(t, "Busy")
		p := d.signedIn(t, ws)
		id, _ := addEndpoint(t, p, ws, "https://receiver.example.com/hook", "order.paid", "student.created")
		const n = 10000
		seedDeliveries(t, tx, subs, store, ws, id, n)
		base := "/dashboard/w/" + ws + "/webhooks/" + id

		want := func(keep func(i int) bool) []string {
			var out []string
			for i := 0; i < n; i++ { // newest first: i ascending, then the larger id of a pair first
				if keep(i) {
					out = append(out, fmt.Sprintf("evd_seed%06d", i))
				}
			}
			for j := 0; j+1 < len(out); j++ { // pairs created at once come id descending
				a, b := out[j], out[j+1]
				var ia, ib int
				fmt.Sscanf(a, "evd_seed%06d", &ia)
				fmt.Sscanf(b, "evd_seed%06d", &ib)
				if ia/2 == ib/2 {
					out[j], out[j+1] = b, a
					j++
				}
			}
			return out
		}
		cases := []struct {
			query string
			keep  func(i int) bool
		}{
			{"status=failed&type=order.paid", func(i int) bool { return i%3 == 1 && i%2 == 0 }},
			{"status=failing", func(i int) bool { return i%3 == 2 }},
			{"type=student.created", func(i int) bool { return i%2 == 1 }},
		}
		for _, c := range cases {
			got, pages := walkLog(t, p, base, c.query)
			exp := want(c.keep)
			if len(got) != len(exp) {
				t.Fatalf("%s: %d deliveries over %d pages, want %d", c.query, len(got), pages, len(exp))
			}
			for i := range exp {
				if got[i] != exp[i] {
					t.Fatalf("%s: position %d is %s, want %s (order, overlap or gap)", c.query, i, got[i], exp[i])
				}
			}
			if pages != (len(exp)+49)/50 {
				t.Fatalf("%s: %d pages for %d rows", c.query, pages, len(exp))
			}
		}
		// Unfiltered: the first page is the newest 50.
		first := rowID.FindAllStringSubmatch(body(p.Get(t, base+"/deliveries").Expect(t, http.StatusOK)), -1)
		if len(first) != 50 || first[0][1] != "evd_seed000001" {
			t.Fatalf("first page: %d rows starting %v", len(first), first[0])
		}
		// Search by delivery id and by event id: exactly that one.
		for _, q := range []string{"evd_seed004242", "evt_seed004242"} {
			got := rowID.FindAllStringSubmatch(body(p.Get(t, base+"/deliveries?q="+q).Expect(t, http.StatusOK)), -1)
			if len(got) != 1 || got[0][1] != "evd_seed004242" {
				t.Fatalf("search %s: %v", q, got)
			}
		}
		if got := rowID.FindAllString(body(p.Get(t, base+"/deliveries?q=evt_nothing").Expect(t, http.StatusOK)), -1); len(got) != 0 {
			t.Fatalf("search for nothing found %v", got)
		}
		p.Get(t, base+"/deliveries?status=bogus").Expect(t, http.StatusBadRequest)
	})
}
