package tests

import (
	"context"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Racing starts of one session: the row lock of Repository.Get inside the command's
// transaction lets exactly one win; the others see a live session (422 status), and one
// live_session.started is published. The memory twin takes no locks, so this runs on the
// databases only (docs/architecture.md, the live sessions slice).
func TestLiveSessionRacingStartsOneWins(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var app livesessions.Application
		env := testenv.Start(t, dbURL, fx.Populate(&app))
		ctx := context.Background()
		ws := env.CreateWorkspace(t, "Race")
		course := env.CreateCourse(t, ws, "Painting")
		s, err := app.Commands.ScheduleSession.Handle(ctx, command.ScheduleSession{WorkspaceID: ws, CourseID: course, Title: "Q&A"})
		if err != nil {
			t.Fatalf("schedule: %v", err)
		}
		const n = 6
		errs := make([]error, n)
		concurrently(n, func(i int) {
			_, errs[i] = app.Commands.StartSession.Handle(ctx, command.StartSession{WorkspaceID: ws, LiveSessionID: s.ID})
		})
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
			case isInvalid(err, "status"):
			default:
				t.Fatalf("start %d: %v", i, err)
			}
		}
		if won != 1 {
			t.Fatalf("%d of %d racing starts succeeded; want 1 (%v)", won, n, errs)
		}
		if got := len(env.OutboxEventsOfType(t, events.LiveSessionStarted)); got != 1 {
			t.Fatalf("%d live_session.started events; want 1", got)
		}
	})
}
