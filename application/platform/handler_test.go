package platform

import (
	"context"
	"errors"
	"testing"
)

type fakeTx struct{ runs int }

func (f *fakeTx) WithinTx(ctx context.Context, fn func(ctx context.Context) error) error {
	f.runs++
	return fn(ctx)
}

func (f *fakeTx) WithinSavepoint(ctx context.Context, fn func(ctx context.Context) error) error {
	return f.WithinTx(ctx, fn)
}

type recorder struct {
	names []string
	errs  []error
}

func (r *recorder) Begin(ctx context.Context, name string) (context.Context, func(error)) {
	r.names = append(r.names, name)
	return ctx, func(err error) { r.errs = append(r.errs, err) }
}

func TestCommandRunsInATransactionObservedAndWrapped(t *testing.T) {
	tx, obs := &fakeTx{}, &recorder{}
	boom := errors.New("boom")
	h := Command("double", tx, obs, HandlerFunc[int, int](func(_ context.Context, n int) (int, error) {
		if n < 0 {
			return n, boom
		}
		return 2 * n, nil
	}))
	if got, err := h.Handle(context.Background(), 21); got != 42 || err != nil {
		t.Fatalf("Handle(21) = %d, %v", got, err)
	}
	got, err := h.Handle(context.Background(), -1)
	if got != 0 || !errors.Is(err, boom) || err.Error() != "double: boom" {
		t.Fatalf("Handle(-1) = %d, %v; want 0 and the wrapped error", got, err)
	}
	if tx.runs != 2 || len(obs.names) != 2 || obs.names[0] != "double" || obs.errs[0] != nil || !errors.Is(obs.errs[1], boom) {
		t.Fatalf("tx runs %d, observed %v %v", tx.runs, obs.names, obs.errs)
	}
}

func TestQueryWithoutObserver(t *testing.T) {
	h := Query("echo", nil, HandlerFunc[string, string](func(_ context.Context, s string) (string, error) { return s, nil }))
	if got, err := h.Handle(WithRequestID(context.Background(), "req_1"), "x"); got != "x" || err != nil {
		t.Fatalf("Handle = %q, %v", got, err)
	}
	if RequestID(WithRequestID(context.Background(), "req_1")) != "req_1" || RequestID(context.Background()) != "" {
		t.Fatal("request id not carried")
	}
}
