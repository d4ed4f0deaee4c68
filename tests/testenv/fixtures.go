package testenv

import (
	"fmt"
	"net/http"
	"testing"
)

// Fixtures drive the operator API, as an operator would.

// CreateWorkspace creates a workspace and returns its id.
func (e *Env) CreateWorkspace(t testing.TB, name string) string {
	t.Helper()
	var w struct{ ID string }
	e.Admin().Post(t, "/internal/v1/workspaces", map[string]string{"name": name, "ownerEmail": "owner@example.com"}).
		Expect(t, http.StatusCreated).Decode(t, &w)
	return w.ID
}

// CreateKey issues a key with scopes in workspace ws and returns its secret.
func (e *Env) CreateKey(t testing.TB, ws string, scopes ...string) (id, secret string) {
	t.Helper()
	return e.CreateKeyWithQuota(t, ws, 0, 0, scopes...)
}

// CreateKeyWithQuota issues a key with custom quotas (0: default).
func (e *Env) CreateKeyWithQuota(t testing.TB, ws string, perMinute, perDay int, scopes ...string) (id, secret string) {
	t.Helper()
	var k struct{ ID, Secret string }
	e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws),
		map[string]any{"name": "test key", "scopes": scopes, "perMinute": perMinute, "perDay": perDay}).
		Expect(t, http.StatusCreated).Decode(t, &k)
	return k.ID, k.Secret
}

// CreateCourse creates a draft with one module of two lessons and returns its id.
func (e *Env) CreateCourse(t testing.TB, ws, title string) string {
	t.Helper()
	admin := e.Admin()
	var c, m struct{ ID string }
	admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses", ws), map[string]string{"title": title}).
		Expect(t, http.StatusCreated).Decode(t, &c)
	admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/modules", ws, c.ID), map[string]string{"title": "Module 1"}).
		Expect(t, http.StatusCreated).Decode(t, &m)
	for i, kind := range []string{"video", "text"} {
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/modules/%s/lessons", ws, m.ID),
			map[string]any{"title": fmt.Sprintf("Lesson %d", i+1), "type": kind, "durationSeconds": 60 * (i + 1)}).
			Expect(t, http.StatusCreated)
	}
	return c.ID
}

// PublishCourse publishes course id.
func (e *Env) PublishCourse(t testing.TB, ws, id string) {
	t.Helper()
	e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/publish", ws, id), nil).Expect(t, http.StatusOK)
}

// CreatePublishedCourse creates and publishes a course and returns its id.
func (e *Env) CreatePublishedCourse(t testing.TB, ws, title string) string {
	t.Helper()
	id := e.CreateCourse(t, ws, title)
	e.PublishCourse(t, ws, id)
	return id
}
