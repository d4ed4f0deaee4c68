package tests

import (
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
	"github.com/google/go-cmp/cmp"
)

type lessonProgressView struct {
	StudentID    string         `json:"studentId"`
	CourseID     string         `json:"courseId"`
	LessonID     string         `json:"lessonId"`
	EnrollmentID string         `json:"enrollmentId"`
	CompletedAt  time.Time      `json:"completedAt"`
	Progress     progressJSON   `json:"progress"`
	Enrollment   enrollmentView `json:"enrollment"`
}

func TestProgressPercentagesAndCompletion(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreateCourse(t, ws, "Three Lessons")
		env.AddLesson(t, ws, course, "Lesson 3")
		env.PublishCourse(t, ws, course)
		lessons := env.LessonIDs(t, ws, course)
		enrollment := env.Enroll(t, ws, student, course)

		steps := []struct {
			lesson  string
			percent int
			status  string
		}{{lessons[0], 33, "active"}, {lessons[1], 66, "active"}, {lessons[2], 100, "completed"}}
		for i, step := range steps {
			env.Clock.Advance(time.Minute)
			now := env.Clock.Now()
			var p lessonProgressView
			env.CompleteLesson(t, ws, student, step.lesson).Expect(t, http.StatusCreated).Decode(t, &p)
			want := progressJSON{CompletedLessons: i + 1, TotalLessons: 3, Percent: step.percent}
			if p.StudentID != student || p.CourseID != course || p.LessonID != step.lesson || p.EnrollmentID != enrollment ||
				!p.CompletedAt.Equal(now) || p.Progress != want || p.Enrollment.Status != step.status {
				t.Fatalf("step %d: %+v, want progress %+v and status %s", i, p, want, step.status)
			}
			var list studentList
			api.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
			got := list.Data[0]
			if got.Enrollments[0].Progress != want || got.Enrollments[0].Status != step.status || !got.UpdatedAt.Equal(now) {
				t.Fatalf("step %d: student %+v, want progress %+v, status %s, updatedAt %s", i, got, want, step.status, now)
			}
			// Idempotent per lesson: a repeat is 200 with the first completion time.
			env.Clock.Advance(time.Second)
			var again lessonProgressView
			env.CompleteLesson(t, ws, student, step.lesson).Expect(t, http.StatusOK).Decode(t, &again)
			if !again.CompletedAt.Equal(now) || again.Progress != want {
				t.Fatalf("step %d repeat: %+v", i, again)
			}
		}
		var list studentList
		api.Get(t, "/api/v1/students").Decode(t, &list)
		done := list.Data[0].Enrollments[0]
		if done.CompletedAt == nil || !done.CompletedAt.Equal(testenv.Epoch.Add(3*time.Minute+2*time.Second)) {
			t.Fatalf("completed enrollment %+v", done)
		}

		lessonEvents := env.OutboxEventsOfType(t, events.LessonCompleted)
		completed := env.OutboxEventsOfType(t, events.EnrollmentCompleted)
		if len(lessonEvents) != 3 || len(completed) != 1 {
			t.Fatalf("%d lesson.completed and %d enrollment.completed, want 3 and 1", len(lessonEvents), len(completed))
		}
		if p := decodeData[lessonProgressView](t, lessonEvents[2]); p.LessonID != lessons[2] || p.Progress.Percent != 100 {
			t.Fatalf("lesson.completed data %+v", p)
		}
		e := decodeData[enrollmentView](t, completed[0])
		if e.ID != enrollment || e.Status != "completed" || e.CompletedAt == nil || completed[0].WorkspaceID != ws {
			t.Fatalf("enrollment.completed data %+v", e)
		}
		if events.IsPublic(events.LessonCompleted) || events.IsPublic(events.EnrollmentCompleted) || len(events.PublicTypes) != 13 {
			t.Fatal("internal progress events must not be webhook types")
		}
		// Progress and completion emit nothing public.
		var public []events.Type
		for _, ev := range env.OutboxEvents(t) {
			if events.IsPublic(ev.Type) {
				public = append(public, ev.Type)
			}
		}
		if want := []events.Type{events.StudentCreated, events.CoursePublished, events.EnrollmentCreated}; !reflect.DeepEqual(public, want) {
			t.Fatalf("public events %v, want %v", public, want)
		}

		// A revoked and re-granted completed enrollment comes back completed.
		env.RevokeEnrollment(t, ws, enrollment).Expect(t, http.StatusOK)
		var back enrollmentView
		api.Post(t, "/api/v1/enrollments", map[string]string{"studentId": student, "courseId": course}).Expect(t, http.StatusOK).Decode(t, &back)
		if back.Status != "completed" || back.CompletedAt == nil || back.RevokedAt != nil {
			t.Fatalf("reactivated completed enrollment %+v", back)
		}
	})
}

func TestProgressRounding(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		api := env.API(env.LearningKey(t, ws))
		student := env.CreateStudent(t, ws, "ada@example.com")

		// Seven lessons: 1/7 = 14.28 -> 14, 6/7 = 85.7 -> 85 (rounded down: 100 only when done).
		course := env.CreateCourse(t, ws, "Seven")
		for i := 3; i <= 7; i++ {
			env.AddLesson(t, ws, course, fmt.Sprintf("Lesson %d", i))
		}
		env.PublishCourse(t, ws, course)
		lessons := env.LessonIDs(t, ws, course)
		env.Enroll(t, ws, student, course)
		want := []int{14, 28, 42, 57, 71, 85, 100}
		for i, l := range lessons {
			var p lessonProgressView
			env.CompleteLesson(t, ws, student, l).Expect(t, http.StatusCreated).Decode(t, &p)
			if diff := cmp.Diff(progressJSON{CompletedLessons: i + 1, TotalLessons: 7, Percent: want[i]}, p.Progress); diff != "" {
				t.Fatalf("after %d of 7 (-want +got):\n%s", i+1, diff)
			}
		}

		// A course without lessons is at 0%, never a division by zero.
		var empty struct{ ID string }
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses", ws), map[string]string{"title": "Empty"}).
			Expect(t, http.StatusCreated).Decode(t, &empty)
		env.PublishCourse(t, ws, empty.ID)
		env.Enroll(t, ws, student, empty.ID)
		var list studentList
		api.Get(t, "/api/v1/students").Expect(t, http.StatusOK).Decode(t, &list)
		byCourse := map[string]studentEnrollmentJSON{}
		for _, e := range list.Data[0].Enrollments {
			byCourse[e.CourseID] = e
		}
		type state struct {
			Progress progressJSON
			Status   string
		}
		states := map[string]state{}
		for id, e := range byCourse {
			states[id] = state{e.Progress, e.Status}
		}
		wantStates := map[string]state{empty.ID: {progressJSON{0, 0, 0}, "active"}, course: {progressJSON{7, 7, 100}, "completed"}}
		if diff := cmp.Diff(wantStates, states); diff != "" {
			t.Fatalf("enrollments by course, the empty one and the finished one (-want +got):\n%s", diff)
		}
		// Enrollment history is oldest first.
		if list.Data[0].Enrollments[0].CourseID != course {
			t.Fatalf("enrollments out of order: %+v", list.Data[0].Enrollments)
		}
	})
}

func TestProgressValidationAndIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		a := env.CreateWorkspace(t, "A")
		b := env.CreateWorkspace(t, "B")
		student := env.CreateStudent(t, a, "ada@example.com")
		course := env.CreatePublishedCourse(t, a, "Course")
		lesson := env.LessonIDs(t, a, course)[0]
		other := env.CreatePublishedCourse(t, a, "Not enrolled")
		otherLesson := env.LessonIDs(t, a, other)[0]
		courseB := env.CreatePublishedCourse(t, b, "B course")
		lessonB := env.LessonIDs(t, b, courseB)[0]
		studentB := env.CreateStudent(t, b, "bob@example.com")
		enrollment := env.Enroll(t, a, student, course)
		path := fmt.Sprintf("/internal/v1/workspaces/%s/progress", a)

		expectInvalid(t, env.CompleteLesson(t, a, student, otherLesson), "studentId")  // not enrolled
		expectInvalid(t, env.CompleteLesson(t, a, student, lessonB), "lessonId")       // lesson of another workspace
		expectInvalid(t, env.CompleteLesson(t, a, student, "les_missing"), "lessonId") // unknown lesson
		expectInvalid(t, env.CompleteLesson(t, a, studentB, lesson), "studentId")      // student of another workspace
		expectInvalid(t, env.CompleteLesson(t, a, "stu_missing", lesson), "studentId") // unknown student
		expectInvalid(t, env.Admin().Post(t, path, map[string]string{"lessonId": lesson}), "studentId")
		expectInvalid(t, env.Admin().Post(t, path, map[string]string{"studentId": student}), "lessonId")
		expectInvalid(t, env.Admin().Post(t, path, `{"studentId":"x","lessonId":"y","score":1}`), "score")
		expectInvalid(t, env.Admin().Post(t, path, `{"studentId":1}`), "studentId")
		expectInvalid(t, env.Admin().Post(t, path, `{`), "body")
		expectInvalid(t, env.Admin().Post(t, path, ""), "body")

		// A revoked enrollment takes no progress.
		env.RevokeEnrollment(t, a, enrollment).Expect(t, http.StatusOK)
		expectInvalid(t, env.CompleteLesson(t, a, student, lesson), "studentId")
		if n := len(env.OutboxEventsOfType(t, events.LessonCompleted)); n != 0 {
			t.Fatalf("%d lesson.completed after refused requests", n)
		}
		// Re-granted, it does again.
		env.Enroll(t, a, student, course)
		env.CompleteLesson(t, a, student, lesson).Expect(t, http.StatusCreated)
		var list studentList
		env.API(env.LearningKey(t, b)).Get(t, "/api/v1/students").Decode(t, &list)
		if diff := cmp.Diff([]string{studentB}, list.ids()); diff != "" || len(list.Data[0].Enrollments) != 0 {
			t.Fatalf("B's students (-want +got):\n%s\n%+v, want no enrollment", diff, list.Data)
		}
		if !reflect.DeepEqual(env.LessonIDs(t, a, course)[:1], []string{lesson}) {
			t.Fatal("curriculum changed")
		}
	})
}

func TestProgressConcurrentLastLessons(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		student := env.CreateStudent(t, ws, "ada@example.com")
		course := env.CreateCourse(t, ws, "Parallel")
		for i := 3; i <= 8; i++ {
			env.AddLesson(t, ws, course, fmt.Sprintf("Lesson %d", i))
		}
		env.PublishCourse(t, ws, course)
		env.Enroll(t, ws, student, course)
		lessons := env.LessonIDs(t, ws, course)

		// Every lesson twice, all at once: 8 completions, one enrollment.completed.
		var wg sync.WaitGroup
		statuses := make(chan int, 2*len(lessons))
		for _, l := range append(append([]string{}, lessons...), lessons...) {
			wg.Add(1)
			go func(l string) {
				defer wg.Done()
				statuses <- env.CompleteLesson(t, ws, student, l).Status
			}(l)
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if counts[http.StatusCreated] != len(lessons) || counts[http.StatusOK] != len(lessons) {
			t.Fatalf("statuses %v, want %d created and %d repeats", counts, len(lessons), len(lessons))
		}
		if n := len(env.OutboxEventsOfType(t, events.LessonCompleted)); n != len(lessons) {
			t.Fatalf("%d lesson.completed, want %d", n, len(lessons))
		}
		if n := len(env.OutboxEventsOfType(t, events.EnrollmentCompleted)); n != 1 {
			t.Fatalf("%d enrollment.completed, want 1", n)
		}
	})
}
