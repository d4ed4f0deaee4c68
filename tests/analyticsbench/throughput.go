package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/consumers"
)

// throughput publishes burst events (order.paid, student.created and enrollment.created
// in turn, one per transaction, 8 writers) and times them into the outbox and through the
// analytics projection (the service's consumers all run, the webhook fan-out included).
func throughput(tg target, dir string, burst int) error {
	cfg, err := config(tg, dir)
	if err != nil {
		return err
	}
	var tx platform.Transactor
	var pub platform.Publisher
	var pos *router.Positions
	app := fx.New(compose.Modules(cfg), compose.Workers(), fx.Populate(&tx, &pub, &pos), fx.NopLogger)
	ctx := context.Background()
	if err := app.Start(ctx); err != nil {
		return err
	}
	defer app.Stop(ctx)
	now := time.Now().UTC()
	event := func(i int64) events.Event {
		ws := fmt.Sprintf("org_bench%02d", i%20)
		switch i % 3 {
		case 0:
			return events.New(events.OrderPaid, ws, map[string]any{"id": fmt.Sprint("ord_", i), "currency": "usd", "amount": 4900, "paidAt": now,
				"history": []map[string]any{{"type": "paid", "amount": 4900, "at": now}}})
		case 1:
			return events.New(events.StudentCreated, ws, map[string]any{"id": fmt.Sprint("stu_", i), "createdAt": now})
		default:
			return events.New(events.EnrollmentCreated, ws, map[string]any{"id": fmt.Sprint("enr_", i), "createdAt": now, "status": "active"})
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	var next atomic.Int64
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(burst); i = next.Add(1) {
				if err := tx.WithinTx(ctx, func(ctx context.Context) error { return pub.Publish(ctx, event(i)) }); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	published := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		ok, err := pos.CaughtUp(ctx, consumers.AnalyticsProjectionName)
		if err != nil {
			return err
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the projection did not catch up within 3 minutes")
		}
		time.Sleep(2 * time.Millisecond)
	}
	consumed := time.Since(start)
	fmt.Printf("analytics %-8s throughput (%d events, 8 writers): outbox %.0f events/s, through the analytics projection %.0f events/s\n",
		tg.name, burst, float64(burst)/published.Seconds(), float64(burst)/consumed.Seconds())
	return nil
}
