package query

import "context"

// CourseLessons is the students module's port onto the courses module: how many lessons
// each course has, the denominator of an enrollment's progress. The read model asks it
// once per page of students (never once per enrollment).
type CourseLessons interface {
	// LessonCounts maps each course among ids in the workspace to its lesson count;
	// unknown ids are absent.
	LessonCounts(ctx context.Context, workspaceID string, courseIDs []string) (map[string]int, error)
}
