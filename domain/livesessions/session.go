// Package livesessions holds live sessions of a course (scheduled -> live -> ended) and
// the recordings made of ended sessions.
package livesessions

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes live session ids.
const IDPrefix = "lvs"

// Status is a session's place in its life cycle.
type Status string

// Session states; a session only moves forward.
const (
	Scheduled Status = "scheduled"
	Live      Status = "live"
	Ended     Status = "ended"
)

// Session is the aggregate.
type Session struct {
	ID          string
	WorkspaceID string
	CourseID    string
	Title       string
	Status      Status
	StartedAt   *time.Time
	EndedAt     *time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Schedule builds a scheduled session of courseID (which the caller has resolved).
func Schedule(id, workspaceID, courseID, title string, now time.Time) (*Session, error) {
	if courseID == "" {
		return nil, kernel.Invalid("courseId", "courseId is required")
	}
	title, err := kernel.RequireText("title", title, 200)
	if err != nil {
		return nil, err
	}
	return &Session{ID: id, WorkspaceID: workspaceID, CourseID: courseID, Title: title, Status: Scheduled, CreatedAt: now, UpdatedAt: now}, nil
}

// Start takes a scheduled session live.
func (s *Session) Start(now time.Time) error {
	return s.advance(Scheduled, Live, "start", &s.StartedAt, now)
}

// End closes a live session.
func (s *Session) End(now time.Time) error {
	return s.advance(Live, Ended, "end", &s.EndedAt, now)
}

// advance moves the session from one state to the next (never back), stamping when.
func (s *Session) advance(from, to Status, verb string, stamp **time.Time, now time.Time) error {
	if s.Status != from {
		return kernel.Invalid("status", "only a %s session can %s; session %s is %s", from, verb, s.ID, s.Status)
	}
	s.Status, *stamp, s.UpdatedAt = to, &now, now
	return nil
}

// Repository stores sessions. Get returns NotFound outside the workspace and locks the
// session for the caller's transaction.
type Repository interface {
	Add(ctx context.Context, s *Session) error
	Get(ctx context.Context, workspaceID, id string) (*Session, error)
	Update(ctx context.Context, s *Session) error
}
