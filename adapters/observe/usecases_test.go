package observe

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

func TestUseCasesMeasureAndLogFaultsWithTheRequestID(t *testing.T) {
	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	u, err := NewUseCases(slog.New(slog.NewTextHandler(&logs, nil)), reg)
	if err != nil {
		t.Fatal(err)
	}
	h := platform.Query("get thing", u, platform.HandlerFunc[int, int](func(_ context.Context, n int) (int, error) {
		switch n {
		case 1:
			return 0, kernel.NotFound("thing %d not found", n)
		case 2:
			return 0, errors.New("disk on fire")
		}
		return n, nil
	}))
	ctx := platform.WithRequestID(context.Background(), "req_42")
	for _, n := range []int{0, 1, 2} {
		_, _ = h.Handle(ctx, n)
	}
	families, err := reg.Gather()
	if err != nil || len(families) != 1 {
		t.Fatalf("gather: %v, %d families", err, len(families))
	}
	runs := map[string]uint64{}
	for _, m := range families[0].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["use_case"] == "get thing" {
			runs[labels["outcome"]] += m.GetHistogram().GetSampleCount()
		}
	}
	if runs["ok"] != 1 || runs["rejected"] != 1 || runs["fault"] != 1 {
		t.Errorf("runs by outcome %v, want one of each", runs)
	}
	out := logs.String()
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "request_id=req_42") || !strings.Contains(out, "disk on fire") {
		t.Errorf("fault not logged with its request id: %s", out)
	}
	if strings.Contains(out, "not found") {
		t.Errorf("a rejection was logged at info level or above: %s", out)
	}
}
