// Package command grants and revokes enrollments and records lesson progress. The
// handlers join an outer transaction, so other modules (orders) can call them inside theirs.
package command

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// StudentDirectory is the port onto the students module.
type StudentDirectory interface {
	// Exists tells whether a live (not deleted) student of the workspace has this id.
	Exists(ctx context.Context, workspaceID, studentID string) (bool, error)
	// Touch moves the student's updatedAt to at (never back): the student embeds its
	// enrollments and their progress, so a change to them is a change to the student.
	Touch(ctx context.Context, workspaceID, studentID string, at time.Time) error
}

// CatalogCourse is what enrollments need to know about a course.
type CatalogCourse struct {
	ID          string
	Published   bool
	LessonCount int
}

// CourseCatalog is the port onto the course catalogue.
type CourseCatalog interface {
	// Course returns kernel NotFound when the course is not in the workspace.
	Course(ctx context.Context, workspaceID, courseID string) (CatalogCourse, error)
	// LessonCourse returns the id of the course holding the lesson, or kernel NotFound.
	LessonCourse(ctx context.Context, workspaceID, lessonID string) (string, error)
}

// Deps are the ports the enrollment commands use.
type Deps struct {
	platform.Kit // Tx, Publisher, IDs, Clock, Observer
	Repo         enrollments.Repository
	Progress     enrollments.ProgressRepository
	Students     StudentDirectory
	Catalog      CourseCatalog
}

// requireStudent resolves a body reference: a missing student is the request's fault
// (422 naming studentId), not a missing resource of the URL (404).
func (d Deps) requireStudent(ctx context.Context, workspaceID, studentID string) error {
	if studentID == "" {
		return kernel.Invalid("studentId", "studentId is required")
	}
	ok, err := d.Students.Exists(ctx, workspaceID, studentID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.Invalid("studentId", "studentId: student %s not found in this workspace", studentID)
	}
	return nil
}
