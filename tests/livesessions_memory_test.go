package tests

import (
	"context"
	"testing"
	"time"

	"go.uber.org/fx"

	memlivesessions "github.com/creatorapi/creatorapi/adapters/memory/livesessions"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainlivesessions "github.com/creatorapi/creatorapi/domain/livesessions"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The live-session use cases on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}: courses, enrollments and live sessions in memory): a session names a
// course of its workspace (checked through the courses module's published query, from
// memory), moves scheduled -> live -> ended, is recorded once ended, and its events are
// published; the live session tables stay empty, which proves the swap.
func TestLiveSessionCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app  livesessions.Application
		crs  courses.Application
		repo domainlivesessions.Repository
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &crs, &repo))
	if _, ok := repo.(memlivesessions.Repository); !ok {
		t.Fatalf("livesessions.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws, other := env.CreateWorkspace(t, "Memory"), env.CreateWorkspace(t, "Other")
	course, err := crs.Commands.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: "Painting"})
	if err != nil {
		t.Fatalf("create course: %v", err)
	}
	_, err = app.Commands.ScheduleSession.Handle(ctx, command.ScheduleSession{WorkspaceID: other, CourseID: course.ID, Title: "Q&A"})
	wantInvalid(t, err, "courseId")

	s, err := app.Commands.ScheduleSession.Handle(ctx, command.ScheduleSession{WorkspaceID: ws, CourseID: course.ID, Title: " Q&A "})
	if err != nil || s.Status != "scheduled" || s.Title != "Q&A" || s.CourseID != course.ID {
		t.Fatalf("schedule: %+v, %v", s, err)
	}
	_, err = app.Commands.AddRecording.Handle(ctx, command.AddRecording{WorkspaceID: ws, LiveSessionID: s.ID, DurationSeconds: 60})
	wantInvalid(t, err, "liveSessionId")
	_, err = app.Commands.EndSession.Handle(ctx, command.EndSession{WorkspaceID: ws, LiveSessionID: s.ID})
	wantInvalid(t, err, "status")

	env.Clock.Set(testenv.Epoch.Add(time.Hour))
	live, err := app.Commands.StartSession.Handle(ctx, command.StartSession{WorkspaceID: ws, LiveSessionID: s.ID})
	if err != nil || live.Status != "live" || live.StartedAt == nil || !live.StartedAt.Equal(testenv.Epoch.Add(time.Hour)) {
		t.Fatalf("start: %+v, %v", live, err)
	}
	_, err = app.Commands.StartSession.Handle(ctx, command.StartSession{WorkspaceID: ws, LiveSessionID: s.ID})
	wantInvalid(t, err, "status")
	_, err = app.Commands.StartSession.Handle(ctx, command.StartSession{WorkspaceID: other, LiveSessionID: s.ID})
	if !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's session: %v", err)
	}
	ended, err := app.Commands.EndSession.Handle(ctx, command.EndSession{WorkspaceID: ws, LiveSessionID: s.ID})
	if err != nil || ended.Status != "ended" || ended.EndedAt == nil || ended.StartedAt == nil {
		t.Fatalf("end: %+v, %v", ended, err)
	}
	rec, err := app.Commands.AddRecording.Handle(ctx, command.AddRecording{WorkspaceID: ws, LiveSessionID: s.ID, DurationSeconds: 3600})
	if err != nil || rec.LiveSessionID != s.ID || rec.CourseID != course.ID || rec.Status != "ready" || rec.DurationSeconds != 3600 {
		t.Fatalf("record: %+v, %v", rec, err)
	}
	_, err = app.Commands.AddRecording.Handle(ctx, command.AddRecording{WorkspaceID: other, LiveSessionID: s.ID, DurationSeconds: 60})
	wantInvalid(t, err, "liveSessionId")

	// The events still go to the outbox, in the command's transaction.
	for typ, want := range map[events.Type]int{
		events.LiveSessionStarted: 1, events.LiveSessionEnded: 1, events.RecordingReady: 1,
	} {
		if got := len(env.OutboxEventsOfType(t, typ)); got != want {
			t.Fatalf("%d %s events; want %d", got, typ, want)
		}
	}
	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM live_sessions) + (SELECT COUNT(*) FROM recordings)`); err != nil || rows != 0 {
		t.Fatalf("live session rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
