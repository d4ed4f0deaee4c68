package tests

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// analyticsWorkload drives random operations through the APIs, with the manual clock
// moving forward across days: orders in three currencies, partial and full refunds,
// students created and deleted, enrollments granted (and reactivated) through the public
// API, revocations, and lessons completed up to course completion.
type analyticsWorkload struct {
	env      *testenv.Env
	rng      *rand.Rand
	ws       string
	api      testenv.Client
	courses  []string
	lessons  map[string][]string // course -> lessons
	students []string            // alive
	orders   []*workloadOrder
	enrolled []workloadEnrollment
	seq      int
}

type workloadOrder struct {
	id        string
	remaining int64
}

type workloadEnrollment struct{ id, student, course string }

// newAnalyticsWorkload sets up a workspace with three published courses of 2, 3 and 4
// lessons. The seed comes from CREATORAPI_TEST_SEED when set (to replay a failure).
func newAnalyticsWorkload(t *testing.T, env *testenv.Env, name string) *analyticsWorkload {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CREATORAPI_TEST_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("workload %s: CREATORAPI_TEST_SEED=%d", name, seed)
	ws := env.CreateWorkspace(t, name)
	w := &analyticsWorkload{env: env, rng: rand.New(rand.NewPCG(seed, 5)), ws: ws, api: env.API(env.LearningKey(t, ws)), lessons: map[string][]string{}}
	for i := range 3 {
		c := env.CreatePublishedCourse(t, ws, fmt.Sprintf("%s course %d", name, i))
		for j := 0; j < i; j++ {
			env.AddLesson(t, ws, c, fmt.Sprintf("extra %d", j))
		}
		w.courses = append(w.courses, c)
		w.lessons[c] = env.LessonIDs(t, ws, c)
	}
	return w
}

// run performs n operations.
func (w *analyticsWorkload) run(t *testing.T, n int) {
	t.Helper()
	for range n {
		w.step(t)
	}
}

func (w *analyticsWorkload) step(t *testing.T) {
	t.Helper()
	env, r := w.env, w.rng
	// Time moves on: mostly minutes to hours, sometimes whole days (so days and windows
	// have edges to get wrong).
	if r.IntN(20) == 0 {
		env.Clock.Advance(time.Duration(1+r.IntN(3)) * 24 * time.Hour)
	} else {
		env.Clock.Advance(time.Duration(r.IntN(300)) * time.Minute)
	}
	if len(w.students) < 3 {
		w.createStudent(t)
		return
	}
	switch p := r.IntN(100); {
	case p < 15:
		w.createStudent(t)
	case p < 19:
		i := r.IntN(len(w.students))
		env.Admin().Do(t, http.MethodDelete, studentsPath(w.ws)+"/"+w.students[i], nil).Expect(t, http.StatusOK)
		w.students = append(w.students[:i], w.students[i+1:]...)
	case p < 39:
		w.placeOrder(t)
	case p < 52:
		w.refund(t)
	case p < 66:
		s, c := w.pick(w.students), w.pick(w.courses)
		var e struct{ ID string }
		resp := w.api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": s, "courseId": c})
		if resp.Status != http.StatusCreated && resp.Status != http.StatusOK {
			t.Fatalf("enroll: %d %s", resp.Status, resp.Body)
		}
		resp.Decode(t, &e)
		w.enrolled = append(w.enrolled, workloadEnrollment{id: e.ID, student: s, course: c})
	case p < 74:
		if len(w.enrolled) > 0 {
			env.RevokeEnrollment(t, w.ws, w.pick(w.enrolledIDs())).Expect(t, http.StatusOK)
		}
	default:
		if len(w.enrolled) > 0 {
			e := w.enrolled[r.IntN(len(w.enrolled))]
			resp := env.CompleteLesson(t, w.ws, e.student, w.pick(w.lessons[e.course]))
			// 422: the enrollment is revoked or the student was deleted since.
			if resp.Status != http.StatusCreated && resp.Status != http.StatusOK && resp.Status != http.StatusUnprocessableEntity {
				t.Fatalf("complete lesson: %d %s", resp.Status, resp.Body)
			}
		}
	}
}

func (w *analyticsWorkload) createStudent(t *testing.T) {
	t.Helper()
	w.seq++
	var s struct{ ID string }
	w.api.Post(t, "/api/v1/students", map[string]string{"email": fmt.Sprintf("s%d@example.com", w.seq)}).Expect(t, http.StatusCreated).Decode(t, &s)
	w.students = append(w.students, s.ID)
}

func (w *analyticsWorkload) placeOrder(t *testing.T) {
	t.Helper()
	currency := []string{"usd", "eur", "gbp"}[w.rng.IntN(3)]
	first := w.rng.IntN(len(w.courses))
	items := []testenv.OrderItem{{CourseID: w.courses[first], Amount: int64(100 + w.rng.IntN(9900))}}
	if w.rng.IntN(3) == 0 {
		items = append(items, testenv.OrderItem{CourseID: w.courses[(first+1)%len(w.courses)], Amount: int64(w.rng.IntN(5000))})
	}
	student := w.pick(w.students)
	o := w.env.PlaceOrder(t, w.ws, student, currency, items...)
	w.orders = append(w.orders, &workloadOrder{id: o.ID, remaining: o.Amount})
	for _, en := range o.Entitlements {
		w.enrolled = append(w.enrolled, workloadEnrollment{id: en.EnrollmentID, student: student, course: en.CourseID})
	}
}

// refund returns part of an order (sometimes all that is left, which revokes its
// enrollments); orders with nothing left are skipped.
func (w *analyticsWorkload) refund(t *testing.T) {
	t.Helper()
	if len(w.orders) == 0 {
		return
	}
	o := w.orders[w.rng.IntN(len(w.orders))]
	if o.remaining == 0 {
		return
	}
	amount := o.remaining // full
	if w.rng.IntN(3) > 0 && o.remaining > 1 {
		amount = 1 + w.rng.Int64N(o.remaining-1)
	}
	w.env.PostRefund(t, w.ws, o.id, amount).Expect(t, http.StatusOK)
	o.remaining -= amount
}

func (w *analyticsWorkload) enrolledIDs() []string {
	ids := make([]string, len(w.enrolled))
	for i, e := range w.enrolled {
		ids[i] = e.id
	}
	return ids
}

func (w *analyticsWorkload) pick(from []string) string { return from[w.rng.IntN(len(from))] }

// analyticsFigures is the summary without window and asOf.
type analyticsFigures struct {
	Revenue                     []revenueJSON
	New, Created, Revoked, Done int64
	Lessons                     int64
	Rate                        float64
}

func figuresOf(s summaryJSON) analyticsFigures {
	return analyticsFigures{Revenue: s.Revenue, New: s.Students.New, Created: s.Enrollments.Created, Revoked: s.Enrollments.Revoked,
		Done: s.Enrollments.Completed, Lessons: s.LessonsCompleted, Rate: s.CompletionRate}
}

// oracleFigures recomputes the window [from, to] (UTC dates, inclusive) from the source tables.
func oracleFigures(t *testing.T, env *testenv.Env, ws string, from, to time.Time) analyticsFigures {
	t.Helper()
	c, err := testenv.NewSourceAnalytics(env.DB).Counts(context.Background(), ws, from, to.AddDate(0, 0, 1))
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	f := analyticsFigures{Revenue: []revenueJSON{}, New: c.NewStudents, Created: c.Enrollments.Created, Revoked: c.Enrollments.Revoked,
		Done: c.Enrollments.Completed, Lessons: c.LessonsCompleted, Rate: query.Rate(c.CohortCompleted, c.Cohort)}
	for _, r := range c.Revenue {
		f.Revenue = append(f.Revenue, revenueJSON{Currency: r.Currency, Gross: r.Gross, Refunded: r.Refunded, Net: r.Net, Orders: r.Orders, Refunds: r.Refunds})
	}
	return f
}

// analyticsWindows are the windows compared: the whole span, random stretches, and
// single days (where a day-boundary mistake shows).
func analyticsWindows(rng *rand.Rand, first, last time.Time) [][2]time.Time {
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	first, last = day(first), day(last)
	span := int(last.Sub(first).Hours() / 24)
	ws := [][2]time.Time{{last.AddDate(0, 0, -(query.MaxDays - 1)), last}, {first, first.AddDate(0, 0, 29)}}
	for range 6 {
		a := first.AddDate(0, 0, rng.IntN(span+1))
		ws = append(ws, [2]time.Time{a, a.AddDate(0, 0, rng.IntN(60))})
	}
	for range 4 {
		a := first.AddDate(0, 0, rng.IntN(span+1))
		ws = append(ws, [2]time.Time{a, a})
	}
	return ws
}

// compareWithOracle checks the served summary against the source tables on every window,
// and returns the served figures (to compare later runs with).
func compareWithOracle(t *testing.T, env *testenv.Env, ws, key string, windows [][2]time.Time) []analyticsFigures {
	t.Helper()
	var out []analyticsFigures
	for _, w := range windows {
		var s summaryJSON
		env.API(key).Get(t, "/api/v1/analytics/summary?from="+w[0].Format(time.DateOnly)+"&to="+w[1].Format(time.DateOnly)).
			Expect(t, http.StatusOK).Decode(t, &s)
		got, want := figuresOf(s), oracleFigures(t, env, ws, w[0], w[1])
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("window %s..%s\nprojection %+v\nsources    %+v", w[0].Format(time.DateOnly), w[1].Format(time.DateOnly), got, want)
		}
		out = append(out, got)
	}
	return out
}
