package testenv

import (
	"fmt"
	"net/http"
	"testing"
)

// Learning fixtures: students, enrollments and progress, through the operator API.

// LearningScopes are the scopes of the student and enrollment endpoints.
var LearningScopes = []string{"read:courses", "read:students", "write:students", "write:enrollments"}

// LearningKey issues a key with LearningScopes and a quota no test exhausts (the test
// clock stands still, so the minute window never ends).
func (e *Env) LearningKey(t testing.TB, ws string) string {
	t.Helper()
	_, secret := e.CreateKeyWithQuota(t, ws, 1_000_000, 1_000_000, LearningScopes...)
	return secret
}

// CreateStudent creates a student with email and returns its id.
func (e *Env) CreateStudent(t testing.TB, ws, email string) string {
	t.Helper()
	var s struct{ ID string }
	e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/students", ws), map[string]any{"email": email}).
		Expect(t, http.StatusCreated).Decode(t, &s)
	return s.ID
}

// Enroll enrolls student in course (source operator) and returns the enrollment id.
func (e *Env) Enroll(t testing.TB, ws, studentID, courseID string) string {
	t.Helper()
	var en struct{ ID string }
	resp := e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments", ws), map[string]string{"studentId": studentID, "courseId": courseID})
	if resp.Status != http.StatusCreated && resp.Status != http.StatusOK {
		t.Fatalf("enroll: status %d: %s", resp.Status, resp.Body)
	}
	resp.Decode(t, &en)
	return en.ID
}

// RevokeEnrollment revokes enrollment id.
func (e *Env) RevokeEnrollment(t testing.TB, ws, id string) Response {
	t.Helper()
	return e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments/%s/revoke", ws, id), nil)
}

// CompleteLesson records that student completed lesson.
func (e *Env) CompleteLesson(t testing.TB, ws, studentID, lessonID string) Response {
	t.Helper()
	return e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/progress", ws), map[string]string{"studentId": studentID, "lessonId": lessonID})
}

// AddLesson appends a text lesson to the first module of course and returns its id.
func (e *Env) AddLesson(t testing.TB, ws, courseID, title string) string {
	t.Helper()
	modules := e.courseModules(t, ws, courseID)
	var l struct{ ID string }
	e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/modules/%s/lessons", ws, modules[0].ID),
		map[string]any{"title": title, "type": "text", "durationSeconds": 30}).Expect(t, http.StatusCreated).Decode(t, &l)
	return l.ID
}

// LessonIDs returns the lessons of course in curriculum order.
func (e *Env) LessonIDs(t testing.TB, ws, courseID string) []string {
	t.Helper()
	var ids []string
	for _, m := range e.courseModules(t, ws, courseID) {
		for _, l := range m.Lessons {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

type fixtureModule struct {
	ID      string
	Lessons []struct{ ID string }
}

func (e *Env) courseModules(t testing.TB, ws, courseID string) []fixtureModule {
	t.Helper()
	var c struct{ Modules []fixtureModule }
	e.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s", ws, courseID)).Expect(t, http.StatusOK).Decode(t, &c)
	return c.Modules
}
