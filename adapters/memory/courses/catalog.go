package courses

import (
	"context"
	"slices"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Facts returns the courses among ids in the workspace, any status.
func (s Catalog) Facts(_ context.Context, workspaceID string, ids []string) (map[string]query.CourseFacts, error) {
	s.courses.RLock()
	defer s.courses.RUnlock()
	out := make(map[string]query.CourseFacts, len(ids))
	for _, id := range ids {
		if c, ok := s.courses.Find(workspaceID, id); ok {
			out[id] = query.CourseFacts{ID: c.ID, Title: c.Title, Status: string(c.Status), LessonCount: c.LessonCount()}
		}
	}
	return out, nil
}

// LessonCourse returns the course of a lesson, or NotFound outside the workspace.
func (s Catalog) LessonCourse(_ context.Context, workspaceID, lessonID string) (string, error) {
	s.courses.RLock()
	defer s.courses.RUnlock()
	if c, ok := s.holding(workspaceID, func(m courses.Module) bool {
		return slices.ContainsFunc(m.Lessons, func(l courses.Lesson) bool { return l.ID == lessonID })
	}); ok {
		return c.ID, nil
	}
	return "", kernel.NotFound("lesson %s not found", lessonID)
}
