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
	if s.Status != Scheduled {
		return kernel.Invalid("status", "only a scheduled session can start; session %s is %s", s.ID, s.Status)
	}
	s.Status = Live
	s.StartedAt = &now
	s.UpdatedAt = now
	return nil
}

// End closes a live session.
func (s *Session) End(now time.Time) error {
	if s.Status != Live {
		return kernel.Invalid("status", "only a live session can end; session %s is %s", s.ID, s.Status)
	}
	s.Status = Ended
	s.EndedAt = &now
	s.UpdatedAt = now
	return nil
}

// Repository stores sessions. Get returns NotFound outside the workspace and locks the
// session for the caller's transaction.
type Repository interface {
	Add(ctx context.Context, s *Session) error
	Get(ctx context.Context, workspaceID, id string) (*Session, error)
	Update(ctx context.Context, s *Session) error
}
