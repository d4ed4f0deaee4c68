package tests

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	sqlorders "github.com/creatorapi/creatorapi/adapters/sql/orders"
	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/students"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The analytics rebuild refuses when the read model counts an enrollment older than the
// outbox: the enrollments module tells its first activity through its published query
// (the projection no longer reads the enrollment tables), and the guard still sees it.
func TestAnalyticsRebuildRefusesWhenEnrollmentsPredateTheOutbox(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var ops *compose.Operations
		env := testenv.Start(t, dbURL, fx.Populate(&ops))
		ctx := context.Background()
		ws := env.CreateWorkspace(t, "Guard")
		student := env.CreateStudent(t, ws, "ada@example.com")
		env.Enroll(t, ws, student, env.CreatePublishedCourse(t, ws, "Go"))
		env.WaitForConsumers(t)
		if _, err := ops.RebuildAnalytics(ctx, false); err != nil {
			t.Fatalf("rebuild with the whole history in the outbox: %v", err)
		}

		// An enrollment two days older than any event (its event pruned long ago).
		old := testenv.Epoch.Add(-48 * time.Hour)
		e, err := enrollments.New("enr_before_the_outbox", ws, student, env.CreateCourse(t, ws, "Old"), "api", old)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sqlenrollments.NewRepository(env.DB).Add(ctx, e); err != nil {
			t.Fatalf("add old enrollment: %v", err)
		}
		if _, err := ops.RebuildAnalytics(ctx, false); err == nil || !strings.Contains(err.Error(), "no longer holds") {
			t.Fatalf("rebuild over a pruned enrollment: %v; want the refusal", err)
		}
		if _, err := ops.RebuildAnalytics(ctx, true); err != nil {
			t.Fatalf("forced rebuild: %v", err)
		}
	})
}

// The same guard for the orders and students modules' facts (a refund, a new student):
// each module tells its oldest through its published query, the projection reads no
// order or student table.
func TestAnalyticsRebuildRefusesWhenStudentsOrRefundsPredateTheOutbox(t *testing.T) {
	testenv.Parallel(t)
	old := testenv.Epoch.Add(-48 * time.Hour)
	for source, addOld := range map[string]func(t *testing.T, env *testenv.Env, ws string){
		"student": func(t *testing.T, env *testenv.Env, ws string) {
			s, err := students.New("stu_before_the_outbox", ws, students.Profile{Email: "old@example.com"}, old)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sqlstudents.NewRepository(env.DB).Add(context.Background(), s); err != nil {
				t.Fatalf("add old student: %v", err)
			}
		},
		"refund": func(t *testing.T, env *testenv.Env, ws string) {
			ctx := context.Background()
			paid := env.PlaceOrder(t, ws, env.CreateStudent(t, ws, "buyer@example.com"), "eur",
				testenv.OrderItem{CourseID: env.CreatePublishedCourse(t, ws, "Old"), Amount: 100})
			repo := sqlorders.NewRepository(env.DB)
			o, err := repo.Get(ctx, ws, paid.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := o.Refund(nil, old); err != nil { // a refund recorded at a replayed, older instant
				t.Fatal(err)
			}
			if err := repo.Update(ctx, o); err != nil {
				t.Fatalf("record old refund: %v", err)
			}
		},
	} {
		t.Run(source, func(t *testing.T) {
			testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
				var ops *compose.Operations
				env := testenv.Start(t, dbURL, fx.Populate(&ops))
				ctx := context.Background()
				ws := env.CreateWorkspace(t, "Guard")
				env.CreateStudent(t, ws, "ada@example.com")
				env.WaitForConsumers(t)
				if _, err := ops.RebuildAnalytics(ctx, false); err != nil {
					t.Fatalf("rebuild with the whole history in the outbox: %v", err)
				}
				addOld(t, env, ws)
				env.WaitForConsumers(t)
				if _, err := ops.RebuildAnalytics(ctx, false); err == nil || !strings.Contains(err.Error(), "no longer holds") {
					t.Fatalf("rebuild over a pruned %s: %v; want the refusal", source, err)
				}
			})
		})
	}
}
