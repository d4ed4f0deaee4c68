package tests

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// /readyz runs the database and schema checks and names the one that fails; /healthz
// stays a liveness answer that touches nothing.
func TestReadinessNamesTheFailedCheck(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		env := testenv.Start(t, databaseURL)
		var ok struct {
			Status string            `json:"status"`
			Failed []string          `json:"failed"`
			Checks map[string]string `json:"checks"`
		}
		env.API("").Get(t, "/readyz").Expect(t, http.StatusOK).Decode(t, &ok)
		if ok.Status != "ready" || ok.Checks["database"] != "ok" || ok.Checks["migrations"] != "ok" || len(ok.Failed) != 0 {
			t.Fatalf("ready answer %+v", ok)
		}

		// The schema one version behind this build: unready, naming migrations.
		ctx := context.Background()
		if _, err := env.DB.Writer.ExecContext(ctx,
			`DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
			t.Fatal(err)
		}
		var bad struct {
			Status string            `json:"status"`
			Failed []string          `json:"failed"`
			Checks map[string]string `json:"checks"`
		}
		env.API("").Get(t, "/readyz").Expect(t, http.StatusServiceUnavailable).Decode(t, &bad)
		if bad.Status != "unready" || len(bad.Failed) != 1 || bad.Failed[0] != "migrations" ||
			!strings.Contains(bad.Checks["migrations"], "this build needs") || bad.Checks["database"] != "ok" {
			t.Fatalf("unready answer %+v", bad)
		}
		env.API("").Get(t, "/healthz").Expect(t, http.StatusOK)
	})
}

// Redis is checked when it counts the rate limits.
func TestReadinessChecksRedisWhenConfigured(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t), testenv.UseRedis(t))
	var ok struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	env.API("").Get(t, "/readyz").Expect(t, http.StatusOK).Decode(t, &ok)
	if ok.Status != "ready" || ok.Checks["redis"] != "ok" {
		t.Fatalf("ready answer %+v", ok)
	}
}

// The operator's /metrics says which build runs.
func TestBuildInfoMetric(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	body := string(env.Admin().Get(t, "/metrics").Expect(t, http.StatusOK).Body)
	if !strings.Contains(body, `creatorapi_build_info{goversion="go`) || !strings.Contains(body, `version="`) {
		t.Fatalf("metrics lack creatorapi_build_info:\n%s", body)
	}
}
